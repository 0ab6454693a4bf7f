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

export interface CorsOptions {
  methods?: readonly string[];
  allowHeaders?: readonly string[];
  exposeHeaders?: readonly string[];
  /** Seconds a browser may cache a preflight answer. */
  maxAge?: number;
}

const defaults: Required<CorsOptions> = {
  methods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
  allowHeaders: ["Content-Type", "Idempotency-Key", "X-Request-Id", "Accept-Language"],
  exposeHeaders: ["Retry-After", "X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "X-Cache"],
  maxAge: 600,
};

/** Headers for an actual (non-preflight) response to an allowed origin. */
export function corsResponseHeaders(origin: string, options: CorsOptions = {}): Record<string, string> {
  const o = { ...defaults, ...options };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": o.exposeHeaders.join(", "),
    Vary: "Origin",
  };
}

/** Headers answering a preflight from an allowed origin. */
export function corsPreflightHeaders(origin: string, options: CorsOptions = {}): Record<string, string> {
  const o = { ...defaults, ...options };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": o.methods.join(", "),
    "Access-Control-Allow-Headers": o.allowHeaders.join(", "),
    "Access-Control-Max-Age": String(o.maxAge),
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  };
}

/** A copy of the response with extra headers (responses from fetch or cache are immutable). */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  const out = new Response(res.body, res);
  for (const [name, value] of Object.entries(headers)) {
    if (name === "Vary" && out.headers.get("Vary")) out.headers.set("Vary", `${out.headers.get("Vary")}, ${value}`);
    else out.headers.set(name, value);
  }
  return out;
}
