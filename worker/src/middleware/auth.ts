import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { problem } from "../lib/problem";
import { readConfigField } from "../contract/config";
import { keyAccessGuardStatement, keyNameStatement, keyRecordStatement, type KeyRecord } from "../db/businesses";
import type { Access, AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { readKey, sha256Hex, type KeyClaims, type KeyScope } from "../lib/keys";
import { settleAccess } from "../db/tenant-read";
import { withHeaders } from "../lib/response";
import { takeRequest } from "./rate-limit";
import { byBusinessId } from "./shard";

export interface ApiKeyAuthOptions {
  /** The scope this door requires. A key of the other scope gets 403. */
  scope: KeyScope;
}

/**
 * When a request's key record is checked. By default a GET or HEAD runs before its key's record
 * is checked, the check riding in the same D1 round trip as its reads (db/tenant-read.ts), and
 * whatever it answers is replaced by the 401/403/429 when the check fails; every other request is
 * checked before it runs. A route that differs says so next to its handler (keyCheck).
 */
type Settlement = "with-reads" | "before" | "by-handler";

const declared = new WeakMap<object, Settlement>();

function declaration(settlement: Settlement): MiddlewareHandler<AppEnv> {
  const marker: MiddlewareHandler<AppEnv> = async (_c, next) => {
    await next();
  };
  declared.set(marker, settlement);
  return marker;
}

/**
 * Declarations a route puts in its `middleware` to say when its key is checked, when that is not
 * the default (see Settlement). They do nothing themselves; apiKeyAuth finds them among the
 * handlers the request matched.
 */
export const keyCheck = {
  /** A POST that changes nothing (a price calculation): checked with its reads, as a GET. */
  withReads: declaration("with-reads"),
  /**
   * A write whose handler settles the key itself before it changes anything, with the first thing
   * it reads riding in that same round trip (the cart routes' cartCall); a middleware before the
   * handler that writes settles it first (idempotency). An answer given before the key was
   * settled is replaced by the 401/403/429, as for reads.
   */
  byHandler: declaration("by-handler"),
};

function settlementOf(c: Context<AppEnv>): Settlement {
  for (const route of matchedRoutes(c)) {
    // A sub-app with an error handler of its own wraps its handlers (hono-base.ts, route()).
    const handler = route.handler as MiddlewareHandler & { __COMPOSED_HANDLER?: object };
    const settlement = declared.get(handler) ?? (handler.__COMPOSED_HANDLER ? declared.get(handler.__COMPOSED_HANDLER) : undefined);
    if (settlement) return settlement;
  }
  return c.req.method === "GET" || c.req.method === "HEAD" ? "with-reads" : "before";
}

/**
 * Tokens whose signature this process has already verified, with their claims and hash: the
 * signature of a given token never changes, so checking it again is work for nothing. Only
 * the signature is remembered; the key's record (revocation) is still read on every request.
 */
const verified = new Map<string, { secret: string; claims: KeyClaims; hash: string }>();
const MAX_VERIFIED = 1_000;

async function verifiedKey(secret: string, token: string): Promise<{ claims: KeyClaims; hash: string } | null> {
  const known = verified.get(token);
  if (known && known.secret === secret) return known;
  const claims = await readKey(secret, token);
  if (!claims) return null;
  if (verified.size >= MAX_VERIFIED) verified.clear();
  const entry = { secret, claims, hash: await sha256Hex(token) };
  verified.set(token, entry);
  return entry;
}

/** The rate limit of a key's record: its business's stored setting when valid, else the default. */
const rateLimitOf = (record: KeyRecord): number => readConfigField("rate_limit_per_minute", record.rate_limit_per_minute);

const unauthorized = (detail: string) =>
  new ApiError(401, "unauthorized", detail, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });

/** The key's access: its D1 record (joined with the business) settles it, then the rate limit. */
function keyAccess(c: Context<AppEnv>, claims: KeyClaims, tokenHash: string, scope: KeyScope): Access {
  /** The rate limit was taken already (by `fused`): a check after it does not take it again. */
  let admitted = false;
  const admit = async (record: { id: string; business_id: number; slug: string; name: string }, limit: number) => {
    c.set("tenant", { businessId: record.business_id, slug: record.slug, actor: record.name, clientId: `key:${record.id}` });
    if (admitted) return;
    access.headers = await takeRequest(c.env, `key:${record.id}`, limit, c.get("now").getTime());
    admitted = true;
  };
  const access: Access = {
    headers: {},
    guard: (db) => keyRecordStatement(db, claims.jti),
    async check(row) {
      const record = row as KeyRecord | null;
      if (!record || record.business_id !== claims.bid || record.key_hash !== tokenHash) {
        throw unauthorized("The API key is unknown.");
      }
      if (record.revoked_at) throw unauthorized("The API key has been revoked.");
      if (record.scope !== scope) {
        throw new ApiError(403, "forbidden", `This route needs a ${scope} key; this key's scope is ${record.scope}.`);
      }
      await admit(record, rateLimitOf(record));
      return Number(record.catalog_version);
    },
    async fused(db, snap) {
      // What check() asks of the record, in SQL: the write is made only if all of it holds.
      const guard = keyAccessGuardStatement(db, { keyId: claims.jti, businessId: claims.bid, keyHash: tokenHash, scope }, snap.version);
      // The rate limit is the business's as of the snapshot (the guard holds only at its version).
      await admit({ id: claims.jti, business_id: claims.bid, slug: snap.business.slug, name: "" }, snap.business.config.rate_limit_per_minute);
      return {
        statements: [guard, keyNameStatement(db, claims.jti)],
        settle(results) {
          // The key's name, for the request's log line.
          const name = (results[1]?.results[0] as { name?: string } | undefined)?.name ?? "";
          c.set("tenant", { ...c.get("tenant"), actor: name });
        },
      };
    },
  };
  return access;
}

/** Put headers on the answer: in place when its headers can change, else on a copy. */
function setHeaders(c: Context<AppEnv>, headers: Record<string, string>) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return;
  try {
    for (const [name, value] of entries) c.res.headers.set(name, value);
  } catch {
    c.res = withHeaders(c.res, headers);
  }
}

/**
 * Bearer API key authentication. The JWT's signature is checked first (cheap, no I/O): it names
 * the business. Then the key's record in D1, so a revoked key stops working at once, and the
 * business's per-key rate limit. For reads the record rides in the handler's own D1 round trip.
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("Authorization");
    if (!header) throw unauthorized("Send an API key as `Authorization: Bearer <key>`.");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("The Authorization header must be `Bearer <key>`.");
    const token = match[1];
    if (!c.env.KEY_SIGNING_SECRET) throw new Error("KEY_SIGNING_SECRET is not configured");
    const key = await verifiedKey(c.env.KEY_SIGNING_SECRET, token);
    if (!key) throw unauthorized("The API key is malformed or its signature is invalid.");
    const { claims } = key;
    // The business's shard becomes this request's DB (docs/design.md "Shards").
    // A route that only reads is served as a read (it may use a directory entry read moments ago).
    await byBusinessId(c, claims.bid, settlementOf(c) === "with-reads");
    // Until the record is read, the tenant is the business the signed key names.
    c.set("tenant", { businessId: claims.bid, slug: "", actor: "", clientId: `key:${claims.jti}` });
    const access = keyAccess(c, claims, key.hash, options.scope);
    c.set("access", access);
    const deferred = settlementOf(c) !== "before";
    if (!deferred) {
      await settleAccess(c);
      await next();
    } else {
      // The handler's answer stands only once the key is settled: a refused key is the answer even
      // when the handler failed (a 404 of its own), whether its error came back as a response or
      // was thrown on to the app (a lazily loaded router throws it: routes/lazy.ts).
      let thrown: { err: unknown } | null = null;
      try {
        await next();
      } catch (err) {
        thrown = { err };
      }
      try {
        await settleAccess(c);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        c.res = problem(c, err);
        return;
      }
      if (thrown) throw thrown.err;
    }
    setHeaders(c, access.headers);
  };
}
