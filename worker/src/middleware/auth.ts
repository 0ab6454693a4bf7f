import type { MiddlewareHandler } from "hono";
import { parseConfig } from "../contract/config";
import { keyRecord } from "../db/businesses";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { readKey, sha256Hex, type KeyScope } from "../lib/keys";
import { enforceRateLimit } from "./rate-limit";

export interface ApiKeyAuthOptions {
  /** The scope this door requires. A key of the other scope gets 403. */
  scope: KeyScope;
}

const unauthorized = (detail: string) =>
  new ApiError(401, "unauthorized", detail, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });

/**
 * Bearer API key authentication. The JWT's signature is checked first (cheap, no I/O), then its
 * record in D1, so a revoked key stops working at once. Sets the request's tenant, then applies
 * the business's per-key rate limit.
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("Authorization");
    if (!header) throw unauthorized("Send an API key as `Authorization: Bearer <key>`.");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("The Authorization header must be `Bearer <key>`.");
    const token = match[1];
    if (!c.env.KEY_SIGNING_SECRET) throw new Error("KEY_SIGNING_SECRET is not configured");
    const claims = await readKey(c.env.KEY_SIGNING_SECRET, token);
    if (!claims) throw unauthorized("The API key is malformed or its signature is invalid.");
    const record = await keyRecord(c.env.DB, claims.jti);
    if (!record || record.business_id !== claims.bid || record.key_hash !== (await sha256Hex(token))) {
      throw unauthorized("The API key is unknown.");
    }
    if (record.revoked_at) throw unauthorized("The API key has been revoked.");
    if (record.scope !== options.scope) {
      throw new ApiError(403, "forbidden", `This route needs a ${options.scope} key; this key's scope is ${record.scope}.`);
    }
    c.set("tenant", { businessId: record.business_id, slug: record.slug, actor: record.name, clientId: `key:${record.id}` });
    await enforceRateLimit(c, parseConfig(record.config).rate_limit_per_minute);
    await next();
  };
}
