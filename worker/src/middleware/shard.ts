import type { Context, MiddlewareHandler } from "hono";
import { businessMoving, directoryById, rememberedEntry, rememberEntry, directoryBySlug, onShard, shardDb, shardOfInvite, shardsOf, type DirectoryEntry } from "../db/shards";
import type { AppEnv } from "../db/request-env";
import { sha256Hex } from "../lib/keys";
import { openSession } from "./session";

/**
 * The shard of a request (docs/design.md "Shards"): each door finds its business in the directory
 * (on DB) once, and the rest of the request sees `c.env.DB` as that business's shard: `c.env` is
 * replaced by a copy made for this request alone (Hono's Context is per request), so nothing below
 * the door knows there are shards.
 *
 * - The widget proxy `/widget/v1/{slug}`, the hosted page `/book/{slug}`, the back office
 *   `/admin/{slug}/...` and Stripe's webhook `/stripe/webhook/{slug}`: by the slug in the path (shardDoor).
 * - The APIs: by the business the key's verified signature names (middleware/auth.ts, byBusinessId).
 * - A back-office invitation's link `/admin/invite/{token}` names no business: the shard holding the
 *   token's hash is asked of every shard at once (rare, and one indexed read each).
 * - Durable Objects and the scheduled upkeep: db/shards.ts businessEnv and shardsOf.
 *
 * A read (GET, HEAD, OPTIONS, and an API route that only reads, as POST /packages/prices) may use
 * the entry this process read less than DIRECTORY_READ_TTL_MS
 * ago (a plain value in memory, never a promise), so a business's reads cost no directory read
 * while it is asked often. So may an add to a cart and its checkout, whose batches the shard they
 * reach guards (GUARDED_WRITES). Every other write reads the directory, so none is sent to a shard its business
 * is leaving or has left.
 *
 * While a business is being moved (worker/scripts/shard.ts) its writes are refused with 503 and
 * Retry-After; its reads are served from the shard it is leaving, which holds all of it until the
 * directory is switched.
 */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The writes that may use a remembered entry too: adding to a cart and checking it out, the
 * requests a guest waits on. Every D1 batch of theirs goes through the cart desk, which starts it
 * with the shard guard (durable/cart-desk.ts, migration 0540): on a shard the business is leaving
 * or has left, the batch is refused whole (503 business_moving) and nothing is written there. A
 * write route whose batches do not all go through the desk must not be listed.
 */
const GUARDED_WRITES = /^\/(?:api\/pub\/v2|widget\/v1\/[a-z0-9][a-z0-9-]{0,62})\/(?:bookings\/add|carts\/[^/]+\/checkout)$/;
const mayRemember = (c: Context<AppEnv>, readOnly: boolean) => readOnly || (c.req.method === "POST" && GUARDED_WRITES.test(c.req.path));

const SLUG_PATH = /^\/(?:widget\/v1|book|admin|stripe\/webhook)\/([a-z0-9][a-z0-9-]{0,62})(?:\/|$)/;
const INVITE_PATH = /^\/admin\/invite\/([A-Za-z0-9_-]{20,100})\/?$/;
/** /admin/... segments that are no business. */
const NOT_A_BUSINESS = new Set(["go", "invite", "assets"]);

async function lookUp(key: string, mayUseRemembered: boolean, read: () => Promise<DirectoryEntry | null>): Promise<DirectoryEntry | null> {
  const now = Date.now();
  if (mayUseRemembered) {
    const known = rememberedEntry(key, now);
    if (known) return known.entry;
  }
  const entry = await read();
  rememberEntry(key, entry, now);
  return entry;
}

function enter(c: Context<AppEnv>, entry: DirectoryEntry | null, readOnly: boolean): void {
  if (entry?.moving_since && !readOnly) throw businessMoving();
  // A business absent from the directory lives on shard 0. Its shard's database becomes the
  // request's DB as a D1 session (middleware/session.ts): a copy of the Worker's bindings, for
  // this request alone.
  const shard = entry?.shard ?? 0;
  c.env = { ...c.env, DB: openSession(c, shardDb(theWorkers(c), shard), shard) };
}

/** The Worker's own bindings, as they are until a door opens the request's session (once). */
function theWorkers(c: Context<AppEnv>): Env {
  if (c.get("d1Session")) throw new Error("a request's D1 session is opened once, by the door that finds its business");
  return c.env as Env;
}

/**
 * The business named by a verified API key: its shard becomes the request's DB. `readOnly`: the
 * route only reads (a GET, or a POST that only computes, as POST /packages/prices: the auth
 * middleware knows it by the route's declared key check), so it is served as a read.
 */
export async function byBusinessId(c: Context<AppEnv>, businessId: number, readOnly = READS.has(c.req.method)): Promise<void> {
  enter(c, await lookUp(`id:${businessId}`, mayRemember(c, readOnly), () => directoryById(theWorkers(c).DB, businessId)), readOnly);
}

/** The doors that name their business by its slug in the path, and the invitation's link. */
export function shardDoor(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    const slug = SLUG_PATH.exec(path)?.[1];
    if (slug && !(path.startsWith("/admin/") && NOT_A_BUSINESS.has(slug))) {
      const readOnly = READS.has(c.req.method);
      enter(c, await lookUp(`slug:${slug}`, mayRemember(c, readOnly), () => directoryBySlug(theWorkers(c).DB, slug)), readOnly);
    } else {
      const token = INVITE_PATH.exec(path)?.[1];
      if (token) {
        const shard = await shardOfInvite(shardsOf(theWorkers(c)), await sha256Hex(token));
        if (shard !== null) c.env = onShard(theWorkers(c), shard);
      }
    }
    await next();
  };
}
