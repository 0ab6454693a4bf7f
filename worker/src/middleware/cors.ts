import { isLoopbackHost } from "./https";

export interface OriginRules {
  /** Exact origins allowed, e.g. "https://surfcamp.example" (scheme, host and port). */
  origins: readonly string[];
  /** Any http(s) loopback origin (localhost, 127.0.0.1, [::1], any port) is allowed. */
  allowLoopback: boolean;
  /** The origin the request was made to: pages served by this Worker are always allowed. */
  selfOrigin: string;
}

/** "https://Example.com:443/" -> "https://example.com"; null for what is not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Whether a browser Origin may call the widget proxy. `null` origins (sandboxed frames, file://)
 * are refused: they cannot be told apart from each other.
 */
export function isOriginAllowed(origin: string, rules: OriginRules): boolean {
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  if (normalized === normalizeOrigin(rules.selfOrigin)) return true;
  if (rules.origins.some((o) => normalizeOrigin(o) === normalized)) return true;
  return rules.allowLoopback && isLoopbackHost(new URL(normalized).hostname);
}

/** The widget proxy's CORS answer (hono/cors options). */
export const WIDGET_CORS = {
  allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
  /**
   * What the widget sends, and the tracing headers a host page's fetch wrapper may add to every
   * request (W3C Trace Context and Baggage, B3, Sentry, Datadog, New Relic, AWS X-Ray, Google
   * Cloud): a preflight that refused them would break the widget on such pages.
   */
  allowHeaders: [
    "Content-Type", "Idempotency-Key", "X-Request-Id", "Accept-Language", "X-Turnstile-Token", "X-D1-Bookmark",
    "traceparent", "tracestate", "baggage", "sentry-trace", "b3", "X-B3-TraceId", "X-B3-SpanId", "X-B3-ParentSpanId", "X-B3-Sampled",
    "x-datadog-trace-id", "x-datadog-parent-id", "x-datadog-origin", "x-datadog-sampling-priority", "newrelic", "X-Amzn-Trace-Id", "X-Cloud-Trace-Context",
  ],
  exposeHeaders: ["Retry-After", "X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "X-Cache", "X-D1-Bookmark"],
  maxAge: 600,
};
