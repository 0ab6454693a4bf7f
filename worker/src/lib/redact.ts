/**
 * What a log line may say of a request's path. An invitation's or a password reset's link carries
 * its secret in the path (`/admin/invite/<token>`, `/admin/<business>/reset/<token>`): deployed,
 * every log line goes to Workers Logs and Logpush, and mail scanners open links on arrival, so a
 * logged path would hand the account to whoever reads the logs. The segment after `invite` or
 * `reset` is replaced by `:token`, as the route is written.
 */
const SECRET_FOLLOWS = new Set(["invite", "reset"]);

export function redactPath(path: string): string {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    if (SECRET_FOLLOWS.has(parts[i - 1].toLowerCase()) && parts[i] !== "") parts[i] = ":token";
  }
  return parts.join("/");
}
