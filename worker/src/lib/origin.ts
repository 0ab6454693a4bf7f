import { ApiError } from "./errors";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** A host of this machine: local development and tests (plain HTTP is allowed there, and the request's own origin trusted). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * The origin the service's links are made on (invitations, password resets): the configured
 * PUBLIC_ORIGIN (e.g. "https://book.example.com"), never the request's Host, which whoever
 * sends the request chooses. Without one, only a loopback request (local development) may use its
 * own origin; any other answers 503 naming the setting, and no link is made.
 */
export function publicOrigin(configured: string | undefined, requestUrl: string): string {
  if (configured && configured.trim()) return new URL(configured.trim()).origin;
  const url = new URL(requestUrl);
  if (isLoopbackHost(url.hostname)) return url.origin;
  throw new ApiError(503, "not_configured", "This service's public address is not configured (PUBLIC_ORIGIN), so it makes no sign-in or reset link. Tell its operator.");
}
