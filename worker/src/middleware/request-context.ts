import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { redactPath } from "../lib/redact";

export interface RequestContextOptions {
  /** Largest accepted request body in bytes (default 256 KiB). */
  maxBodyBytes?: number;
  /** Paths whose bodies are HTML forms, not JSON (the back office's pages). */
  formPaths?: RegExp;
}

/**
 * Gives each request an id (echoed as `X-Request-Id`) and its clock, refuses bodies that are
 * not JSON or too large (hono/body-limit: the bytes read count, not Content-Length), and writes one structured log line naming the API key that called.
 *
 * The clock is the wall clock, except in tests (`ALLOW_TEST_CLOCK=1`) where `X-Test-Now`
 * sets it, so that expiries can be tested without sleeping.
 */
/** How much of a refused chunked body is read and dropped so that its connection stays usable. */
const DRAIN_BYTES = 4 * 1024 * 1024;

/** Reads `body` to its end and drops it; past `bound` bytes it is cancelled instead. */
async function drain(body: ReadableStream<Uint8Array>, bound: number): Promise<void> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > bound) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to drop.
  }
}

export function requestContext(options: RequestContextOptions = {}): MiddlewareHandler<AppEnv> {
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const limit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => {
      throw new ApiError(413, "payload_too_large", `The request body is larger than ${maxBodyBytes} bytes.`);
    },
  });
  return async (c, next) => {
    const requestId = c.req.header("X-Request-Id")?.slice(0, 64) || crypto.randomUUID();
    c.set("requestId", requestId);
    let now = new Date();
    const testNow = c.env.ALLOW_TEST_CLOCK === "1" ? c.req.header("X-Test-Now") : undefined;
    if (testNow && !Number.isNaN(Date.parse(testNow))) now = new Date(testNow);
    c.set("now", now);

    const started = Date.now();
    try {
      if (["POST", "PUT", "PATCH"].includes(c.req.method)) {
        const length = Number(c.req.header("Content-Length") ?? "0");
        const type = c.req.header("Content-Type");
        const hasBody = length > 0 || c.req.header("Transfer-Encoding") !== undefined;
        const form = options.formPaths?.test(c.req.path) && type !== undefined && /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type);
        if (hasBody && type !== undefined && !form && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) {
          throw new ApiError(415, "unsupported_media_type", "Send the request body as application/json.");
        }
        // Counts the bytes as they are read, chunked bodies too, and stops at the limit.
        const body = c.req.raw.body;
        if (!body || c.req.header("Transfer-Encoding") === undefined) {
          await limit(c, next);
        } else {
          // hono/body-limit stops reading a chunked body at the limit and leaves the rest unread
          // in a reader of its own; the connection then cannot carry the next request (locally it
          // failed with 503 "Your worker restarted mid-request", and cancelling the body did not
          // help). So the body reaches it through a pipe this middleware holds, and on a refusal
          // the rest is read and dropped, up to a bound past which it is cancelled.
          const cut = new AbortController();
          const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
          const piped = body.pipeTo(writable, { signal: cut.signal, preventCancel: true }).catch(() => undefined);
          c.req.raw = new Request(c.req.raw, { body: readable, duplex: "half" } as RequestInit);
          try {
            await limit(c, next);
          } catch (err) {
            if (err instanceof ApiError && err.status === 413) {
              cut.abort();
              await piped;
              await drain(body, DRAIN_BYTES);
            }
            throw err;
          }
        }
      } else {
        await next();
      }
    } finally {
      c.header("X-Request-Id", requestId);
      // No answer of this service is meant to be sniffed into another type (JSON read as HTML).
      c.header("X-Content-Type-Options", "nosniff");
      const tenant = c.get("tenant");
      console.log(
        JSON.stringify({
          request_id: requestId,
          method: c.req.method,
          // Never a link's secret (invitations, password resets): see lib/redact.ts.
          path: redactPath(c.req.path),
          status: c.res?.status,
          key: tenant?.actor,
          business: tenant?.slug,
          // the D1 session it read through: unconstrained, bookmark or primary (middleware/session.ts)
          d1: c.get("d1Session")?.kind,
          ms: Date.now() - started,
        }),
      );
    }
  };
}
