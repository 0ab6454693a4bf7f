import type { Context, MiddlewareHandler } from "hono";
import { directoryById, directoryBySlug, onShard, shardOfInvite, shardsOf, type DirectoryEntry } from "../db/shards";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { sha256Hex } from "../lib/keys";

/**
 * The shard of a request (docs/design.md "Shards"): each door finds its business in the directory
 * (on DB) once, and the rest of the request sees `c.env.DB` as that business's shard: `c.env` is
 * replaced by a copy made for this request alone (Hono's Context is per request), so nothing below
 * the door knows there are shards.
 *
 * - The widget proxy `/widget/v1/{slug}`, the hosted page `/book/{slug}` and the back office
 *   `/admin/{slug}/...`: by the slug in the path (shardDoor).
 * - The APIs: by the business the key's verified signature names (middleware/auth.ts, byBusinessId).
 * - A back-office invitation's link `/admin/invite/{token}` names no business: the shard holding the
 *   token's hash is asked of every shard at once (rare, and one indexed read each).
 * - Durable Objects and the scheduled upkeep: db/shards.ts businessEnv and shardsOf.
 *
 * While a business is being moved (worker/scripts/shard.ts) its writes are refused with 503 and
 * Retry-After; its reads are served from the shard it is leaving, which holds all of it until the
 * directory is switched.
 */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Seconds a refused write is told to wait: a move of a business of thousands of bookings takes a few. */
export const MOVING_RETRY_AFTER = 30;

const SLUG_PATH = /^\/(?:widget\/v1|book|admin)\/([a-z0-9][a-z0-9-]{0,62})(?:\/|$)/;
const INVITE_PATH = /^\/admin\/invite\/([A-Za-z0-9_-]{20,100})\/?$/;
/** /admin/... segments that are no business. */
const NOT_A_BUSINESS = new Set(["go", "invite", "assets"]);

function enter(c: Context<AppEnv>, entry: DirectoryEntry | null): void {
  if (!entry) return;
  if (entry.moving_since && !READS.has(c.req.method)) {
    throw new ApiError(503, "business_moving", "This business is being moved to another database for a moment; nothing was changed. Send the request again shortly.", {
      headers: { "Retry-After": String(MOVING_RETRY_AFTER) },
    });
  }
  c.env = onShard(c.env, entry.shard);
}

/** The business named by a verified API key: its shard becomes the request's DB. */
export async function byBusinessId(c: Context<AppEnv>, businessId: number): Promise<void> {
  enter(c, await directoryById(c.env.DB, businessId));
}

/** The doors that name their business by its slug in the path, and the invitation's link. */
export function shardDoor(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    const slug = SLUG_PATH.exec(path)?.[1];
    if (slug && !(path.startsWith("/admin/") && NOT_A_BUSINESS.has(slug))) {
      enter(c, await directoryBySlug(c.env.DB, slug));
    } else {
      const token = INVITE_PATH.exec(path)?.[1];
      if (token) {
        const shard = await shardOfInvite(shardsOf(c.env), await sha256Hex(token));
        if (shard !== null) c.env = onShard(c.env, shard);
      }
    }
    await next();
  };
}
