import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { ApiError } from "./lib/errors";
import { createRouter } from "./lib/openapi";
import { httpsOnly } from "./middleware/https";
import { requestContext } from "./middleware/request-context";

const PROBLEM_BASE = "https://booking-platform.dev/problems/";

/** Render an ApiError as RFC 9457 problem+json. The only place that formats an error. */
export function problem(c: Context<AppEnv>, err: ApiError): Response {
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
  const headers: Record<string, string> = { "Content-Type": "application/problem+json", ...err.extra.headers };
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

/** Map a framework exception (bad JSON, body too large, ...) to our error codes. */
function fromHttpException(e: HTTPException): ApiError {
  if (e.status === 400 && /json/i.test(e.message)) {
    return new ApiError(400, "malformed_json", "The request body is not valid JSON.");
  }
  if (e.status === 413) return new ApiError(413, "payload_too_large", "The request body is too large.");
  if (e.status === 401) {
    return new ApiError(401, "unauthorized", e.message || "Authentication is required.", {
      headers: { "WWW-Authenticate": "Bearer" },
    });
  }
  return new ApiError(e.status, e.status === 404 ? "not_found" : "validation_failed", e.message || "The request was refused.");
}

/**
 * The app with what every route shares: request id and log line, the HTTPS rule, the error
 * handler and the not-found answer. Routes are mounted by index.ts.
 */
export function createApp() {
  const app = createRouter();
  app.use("*", requestContext());
  app.use("*", httpsOnly());

  app.notFound((c) => problem(c, new ApiError(404, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)));

  app.onError((err, c) => {
    if (err instanceof ApiError) return problem(c, err);
    if (err instanceof HTTPException) return problem(c, fromHttpException(err));
    console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), error: String(err), stack: (err as Error)?.stack }));
    return problem(c, new ApiError(500, "internal_error", "An unexpected error occurred. It has been logged with this request id."));
  });
  return app;
}
