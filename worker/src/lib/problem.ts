import { HTTPException } from "hono/http-exception";
import { ApiError } from "./errors";

const PROBLEM_BASE = "https://booking-platform.dev/problems/";

/**
 * What the error path needs of a request's context, whatever the app's environment: its URL and
 * method, and its request id. Structural, so that lib/ needs nothing of env.ts (which sits above it).
 */
export interface ProblemContext {
  req: { url: string; method: string };
  get(key: "requestId"): unknown;
}

/**
 * Render an ApiError as RFC 9457 problem+json. The only place that formats an error: every door
 * (the APIs, the widget proxy, the pages) answers its errors through it.
 */
export function problem(c: ProblemContext, err: ApiError): Response {
  const body = {
    type: PROBLEM_BASE + err.code,
    title: err.title,
    status: err.status,
    detail: err.message,
    code: err.code,
    instance: new URL(c.req.url).pathname,
    request_id: c.get("requestId"),
    ...(err.extra.errors ? { errors: err.extra.errors } : {}),
  };
  const headers: Record<string, string> = {
    "Content-Type": "application/problem+json",
    "X-Content-Type-Options": "nosniff",
    ...err.extra.headers,
  };
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

/** A framework exception (bad JSON, a body too large, ...) as one of our error codes. */
export function fromHttpException(e: HTTPException): ApiError {
  if (e.status === 400 && /json/i.test(e.message)) {
    return new ApiError(400, "malformed_json", "The request body is not valid JSON.");
  }
  if (e.status === 413) return new ApiError(413, "payload_too_large", e.message || "The request body is too large.");
  if (e.status === 401) {
    return new ApiError(401, "unauthorized", e.message || "Authentication is required.", {
      headers: { "WWW-Authenticate": "Bearer", ...headersOf(e) },
    });
  }
  const code = e.status === 404 ? "not_found" : e.status === 400 ? "validation_failed" : e.status === 403 ? "forbidden" : "validation_failed";
  return new ApiError(e.status, code, e.message || "The request was refused.", { headers: headersOf(e) });
}

/** Headers an HTTPException carries on its own response (WWW-Authenticate, Retry-After...). */
function headersOf(e: HTTPException): Record<string, string> {
  const res = e.getResponse();
  const out: Record<string, string> = {};
  for (const name of ["WWW-Authenticate", "Retry-After", "Allow"]) {
    const value = res.headers.get(name);
    if (value) out[name] = value;
  }
  return out;
}

/** Any thrown value as the ApiError its answer is made from; unexpected errors are logged and hidden. */
export function toApiError(c: ProblemContext, err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) return fromHttpException(err);
  console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), error: String(err), stack: (err as Error)?.stack }));
  return new ApiError(500, "internal_error", "An unexpected error occurred. It has been logged with this request id.");
}

/** The app's error handler (app.onError): every thrown error as problem+json. */
export const onError = (err: unknown, c: ProblemContext): Response => problem(c, toApiError(c, err));

/** The app's not-found answer (app.notFound). */
export const notFound = (c: ProblemContext): Response =>
  problem(c, new ApiError(404, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`));
