/**
 * Cloudflare Turnstile's server-side check: a token the widget got from the challenge, confirmed
 * by the siteverify endpoint (POST, form fields `secret`, `response`, `remoteip`; JSON
 * `{success, "error-codes"}`). The one place that knows the endpoint; its address comes from the
 * Worker's TURNSTILE_VERIFY_URL (the tests point it at a loopback stand-in).
 */
export const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Cloudflare's limit on a token's length: anything longer is refused without asking. */
const MAX_TOKEN = 2048;

export interface Verdict {
  success: boolean;
  /** Cloudflare's error codes (e.g. "invalid-input-response", "timeout-or-duplicate"), or ours: "unreachable". */
  codes: string[];
}

export async function verifyTurnstile(url: string | undefined, secret: string, token: string, remoteIp: string | null): Promise<Verdict> {
  if (!token) return { success: false, codes: ["missing-input-response"] };
  if (token.length > MAX_TOKEN) return { success: false, codes: ["invalid-input-response"] };
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  try {
    const res = await fetch(url || SITEVERIFY_URL, { method: "POST", body: form, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return { success: false, codes: [`http-${res.status}`] };
    const body = (await res.json()) as { success?: unknown; "error-codes"?: unknown };
    const codes = Array.isArray(body["error-codes"]) ? body["error-codes"].filter((c): c is string => typeof c === "string") : [];
    return { success: body.success === true, codes };
  } catch {
    return { success: false, codes: ["unreachable"] };
  }
}
