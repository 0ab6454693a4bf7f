import { addressKey } from "../domain/ip-address";

/**
 * Who a widget visitor is, for the per-visitor budgets (rate limit, open carts, held units,
 * Idempotency-Keys): the address Cloudflare saw, and only where the platform says so.
 *
 * - `CF-Connecting-IP` is set by Cloudflare's edge on every request it forwards (a client's own
 *   is replaced), so deployed it is the visitor's address. A local `wrangler dev` passes a
 *   client's header through (it adds one only when none was sent): there, with
 *   TRUST_CF_CONNECTING_IP "false" (worker/scripts/server.ts, .dev.vars), it is ignored and every
 *   request is the one local visitor. `X-Real-IP` is never trusted.
 * - An IPv6 address counts by its /64 (domain/ip-address.ts addressKey): one subscriber can send
 *   from any address of its /64, and each would otherwise get a budget of its own.
 */
export function visitorKey(req: Request, env: Pick<Env, "TRUST_CF_CONNECTING_IP">): string {
  if (env.TRUST_CF_CONNECTING_IP !== "true") return "local";
  const sent = req.headers.get("CF-Connecting-IP");
  return (sent && addressKey(sent)) ?? "local";
}
