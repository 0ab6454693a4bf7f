/**
 * A loopback stand-in for Cloudflare Turnstile's siteverify endpoint (POST
 * https://challenges.cloudflare.com/turnstile/v0/siteverify), for the worker tests and the e2e
 * journeys: the service is pointed at it with TURNSTILE_VERIFY_URL and fetch()es it over real HTTP.
 *
 * It answers as Cloudflare documents (form fields `secret`, `response`, `remoteip`; JSON
 * `{success, "error-codes", ...}`), with Cloudflare's documented test secrets:
 *   1x0000000000000000000000000000000AA  always passes
 *   2x0000000000000000000000000000000AA  always fails (invalid-input-response)
 *   3x0000000000000000000000000000000AA  always fails as a token spent already (timeout-or-duplicate)
 * and for any other secret, the token PASS_TOKEN passes and every other fails. A request without
 * a token fails with missing-input-response, as Cloudflare's does.
 */
import { createServer, type Server } from "node:http";

export const PASSING_SECRET = "1x0000000000000000000000000000000AA";
export const FAILING_SECRET = "2x0000000000000000000000000000000AA";
export const SPENT_SECRET = "3x0000000000000000000000000000000AA";
/** The one token the stand-in accepts under a secret that is not one of the test secrets above. */
export const PASS_TOKEN = "stand-in-pass-token";

export function siteverifyAnswer(form: URLSearchParams): { success: boolean; "error-codes": string[]; hostname?: string; challenge_ts?: string } {
  const secret = form.get("secret") ?? "";
  const token = form.get("response") ?? "";
  const fail = (code: string) => ({ success: false, "error-codes": [code] });
  if (!secret) return fail("missing-input-secret");
  if (!token) return fail("missing-input-response");
  const pass = secret === PASSING_SECRET || (secret !== FAILING_SECRET && secret !== SPENT_SECRET && token === PASS_TOKEN);
  if (secret === SPENT_SECRET) return fail("timeout-or-duplicate");
  if (!pass) return fail("invalid-input-response");
  return { success: true, "error-codes": [], hostname: "localhost", challenge_ts: new Date().toISOString() };
}

/** Start the stand-in on a free loopback port; its URL, and how to stop it. */
export async function startSiteverify(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.method !== "POST" || !(req.url ?? "").startsWith("/turnstile/v0/siteverify")) {
        res.writeHead(404).end();
        return;
      }
      const type = req.headers["content-type"] ?? "";
      const form = type.includes("application/json") ? new URLSearchParams(JSON.parse(body || "{}")) : new URLSearchParams(body);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(siteverifyAnswer(form)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  // It must not keep the process alive: it dies with the run.
  server.unref();
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`, server };
}
