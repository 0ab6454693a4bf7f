/**
 * The business's optional human check at checkout (Cloudflare Turnstile; docs/security.md): on
 * when its settings hold a site key and a secret. A checkout through the widget must then carry a
 * token (header TURNSTILE_HEADER) that Cloudflare's siteverify confirms, or it is refused with 403
 * `human_check_failed` before anything is read or written. An API key is not a visitor: its
 * checkouts are not asked. Here because routes reach the outside services only through manage/.
 */
import type { BusinessConfig } from "../contract/config";
import { ApiError } from "../lib/errors";
import { verifyTurnstile } from "../integrations/turnstile";

/** The request header the widget sends the Turnstile token in. */
export const TURNSTILE_HEADER = "X-Turnstile-Token";

export const humanCheckOn = (config: Pick<BusinessConfig, "turnstile_site_key" | "turnstile_secret">) => Boolean(config.turnstile_site_key && config.turnstile_secret);

const REASONS: Record<string, string> = {
  "missing-input-response": "no token was sent",
  "invalid-input-response": "the token is invalid or has expired",
  "timeout-or-duplicate": "the token was used already or has expired",
  "invalid-input-secret": "the business's Turnstile secret is not valid",
  unreachable: "Cloudflare could not be asked",
};

export async function requireHuman(env: Pick<Env, "TURNSTILE_VERIFY_URL">, config: Pick<BusinessConfig, "turnstile_site_key" | "turnstile_secret">, token: string | null, remoteIp: string | null): Promise<void> {
  if (!humanCheckOn(config)) return;
  const verdict = await verifyTurnstile(env.TURNSTILE_VERIFY_URL, config.turnstile_secret!, (token ?? "").trim(), remoteIp);
  if (verdict.success) return;
  const why = verdict.codes.map((c) => REASONS[c] ?? c).join("; ") || "Cloudflare did not confirm it";
  throw new ApiError(403, "human_check_failed", `The human check (Cloudflare Turnstile) failed: ${why}. Nothing was booked: complete the check and send its token in the ${TURNSTILE_HEADER} header.`);
}
