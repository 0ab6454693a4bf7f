import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { sha256Hex } from "../lib/keys";
import { requestSender, settleAccess } from "../db/tenant-read";
import { isoDateTime } from "../lib/time";
import {
  claimKeyStatement, forgetExpiredKeysStatement, IDEMPOTENCY_TTL_SECONDS, forgetRunningKeyStatement, keyRecordStatement, recordAnswerStatement, type IdempotencyRow,
} from "../db/idempotency";

export interface IdempotencyOptions {
  /** How long a key is remembered, per business (default 24 hours). */
  ttlSeconds?: number;
  /**
   * A request still "running" after this many seconds is taken to have died (its Worker was
   * evicted mid-request), so a retry may run instead of getting 409 for a whole day. Default 120.
   */
  staleRunningSeconds?: number;
  /** Header carrying the key (default `Idempotency-Key`). */
  header?: string;
  /**
   * The answer for a request whose change was made (its batch recorded `resource` with
   * idempotencyResourceStatement()) but whose answer was never recorded: its process died in
   * between. Without it such a request is run again once its record goes stale. Null: nothing
   * to answer with yet (the request is taken as still running).
   */
  replay?: (c: Context<AppEnv>, resource: string, requestText: string) => Promise<Response | null>;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The key as stored: the caller, a space (never part of a key), then the key the caller sent. */
const scopedKey = (clientId: string, sent: string) => `${clientId} ${sent}`;

/** JSON with object keys sorted, so the same body sent with another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}


/**
 * `Idempotency-Key` for requests that create or change state (docs/design.md). With the header:
 * - the first request runs, and its answer (any status below 500) is stored for the business;
 * - the same key with the same method, path and body replays that answer (header
 *   `Idempotent-Replayed: true`) without running the handler again;
 * - the same key with another body (or route) is refused with 422 `idempotency_key_reused`;
 * - the same key while the first request is still running is refused with 409
 *   `idempotency_in_progress` and `Retry-After`.
 * A 5xx or a thrown error forgets the key, so that the retry can run, unless the change was
 * made (its batch recorded the resource): then a retry is answered by `replay`. A record left
 * running by a process that died is taken over after `staleRunningSeconds` when nothing was made.
 * Without the header the request runs normally. Must run after the tenant is known (auth); the
 * handler finds the key, as stored, in `c.get("idempotencyKey")`.
 *
 * Keys belong to the caller that sent them (the API key, or the widget visitor: the tenant's
 * clientId), not to the business as a whole: another caller's same key is another key, so no
 * caller gets another's answer, learns of another's request from an error, or can make another's
 * request fail by claiming its (guessable) key first.
 */
export function idempotency(options: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  const ttlMs = (options.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS) * 1000;
  const staleMs = (options.staleRunningSeconds ?? 120) * 1000;
  const headerName = options.header ?? "Idempotency-Key";
  return async (c, next) => {
    const sent = c.req.header(headerName);
    if (sent === undefined) return next();
    if (!KEY_PATTERN.test(sent)) {
      throw new ApiError(422, "validation_failed", `${headerName} must be 1 to 255 visible ASCII characters (a UUID is a good key).`, {
        errors: [{ path: headerName, message: "must be 1 to 255 visible ASCII characters" }],
      });
    }
    // The claim below is a write: the request's access is settled first (a route whose handler
    // settles it would otherwise let an unchecked key claim a key).
    await settleAccess(c);
    const db = c.env.DB;
    const send = requestSender(c);
    const { businessId, clientId } = c.get("tenant");
    const key = scopedKey(clientId, sent);
    const now = c.get("now");
    const route = `${c.req.method} ${new URL(c.req.url).pathname}`;
    const text = await c.req.text();
    let body: string = text;
    try {
      body = canonical(JSON.parse(text));
    } catch {
      // not JSON: the handler's validation answers; the raw text identifies the request
    }
    const hash = await sha256Hex(`${route}\n${body}`);
    const created = isoDateTime(now);

    // Claim the key: forget expired records of this business, then insert ours, or take over a
    // record whose request died while running. `changes` says whether we own the key now.
    const [, claim] = await send([
      forgetExpiredKeysStatement(db, businessId, isoDateTime(new Date(now.getTime() - ttlMs))),
      claimKeyStatement(db, businessId, key, route, hash, created, isoDateTime(new Date(now.getTime() - staleMs))),
    ]);
    if (claim.meta.changes === 0) {
      const [found] = await send([keyRecordStatement(db, businessId, key)]);
      const row = found.results[0] as unknown as IdempotencyRow | undefined;
      if (!row) throw new ApiError(409, "idempotency_in_progress", "A request with this Idempotency-Key is being handled; retry shortly.", { headers: { "Retry-After": "1" } });
      if (row.route !== route || row.request_hash !== hash) {
        throw new ApiError(422, "idempotency_key_reused", `This ${headerName} was already used with a different request; use a new key for a new request.`);
      }
      // The change was made and its answer never recorded: answer with what it made, and record that.
      const replayed = row.state === "running" && row.resource !== null && options.replay ? await options.replay(c, row.resource, text) : null;
      if (replayed) {
        const replayedBody = await replayed.clone().text();
        if (replayed.status < 500) {
          await send([recordAnswerStatement(db, businessId, key, replayed.status, replayedBody, true)]);
        }
        return new Response(replayedBody, { status: replayed.status, headers: { "Content-Type": replayed.headers.get("Content-Type") ?? "application/json", "Idempotent-Replayed": "true" } });
      }
      if (row.state === "running") {
        throw new ApiError(409, "idempotency_in_progress", `A request with this ${headerName} is still being handled; retry shortly to get its answer.`, {
          headers: { "Retry-After": "1" },
        });
      }
      const status = row.response_status ?? 200;
      return new Response(row.response_body, {
        status,
        headers: {
          "Content-Type": status >= 400 ? "application/problem+json" : "application/json",
          "Idempotent-Replayed": "true",
        },
      });
    }

    c.set("idempotencyKey", key);
    // A failed request is forgotten so that its retry runs, unless its change was made after all.
    const forget = () => send([forgetRunningKeyStatement(db, businessId, key)]);
    try {
      await next();
    } catch (err) {
      await forget();
      throw err;
    }
    const res = c.res;
    if (res.status >= 500) {
      await forget();
      return;
    }
    const responseBody = await res.clone().text();
    await send([recordAnswerStatement(db, businessId, key, res.status, responseBody)]);
  };
}
