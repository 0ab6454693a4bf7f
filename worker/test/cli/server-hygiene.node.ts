/**
 * A local server that leaves nothing behind (issue 28), on a real `wrangler dev`:
 * - after a chunked body over the 256 KiB limit is answered 413, the next request on the same
 *   connection is served (before, the rest of the body stayed unread and the next POST got the
 *   runtime's 503 "Your worker restarted mid-request");
 * - the e-mails the local send_email binding wrote (guests' names and addresses) are gone once the
 *   server has stopped (before, a stop that ended in SIGKILL left them in the system's /tmp).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/server";

describe("a local server", () => {
  let persistTo: string;
  let server: RunningServer;

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "body-limit-"));
    server = await startServer({ persistTo });
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("is refused with 413, and the next POST is answered as usual, three times over", async (t) => {
    // The demo's surf week (product 101) starts on Saturdays: the first Saturday a month ahead.
    const start = new Date(Date.now() + 30 * 86_400_000);
    start.setUTCDate(start.getUTCDate() + ((6 - start.getUTCDay() + 7) % 7));
    const day = (offset: number) => new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const prices = JSON.stringify({ guests: [{ unique_id: "ana", gender: "m", package: { id: 101, accommodation_id: 201, start_date: day(0), end_date: day(7) } }] });
    // One keep-alive connection for all six requests (node:http: it says whether a request went
    // out on a socket used before), and a deadline on each, so that a request left unanswered
    // fails here, named, instead of holding the whole suite.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    t.after(() => agent.destroy());
    const post = (body: string | Uint8Array, chunked: boolean) =>
      new Promise<{ status: number; text: string; reused: boolean }>((done, fail) => {
        const headers: Record<string, string> = { "Content-Type": "application/json" };
        if (chunked) headers["Transfer-Encoding"] = "chunked";
        else headers["Content-Length"] = String(Buffer.byteLength(body));
        const req = http.request(`${server.url}/widget/v1/demo/packages/prices`, { method: "POST", agent, headers, signal: AbortSignal.timeout(30_000) }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => done({ status: res.statusCode ?? 0, text, reused: req.reusedSocket }));
          res.on("error", fail);
        });
        req.on("error", fail);
        req.end(body);
      });
    for (let round = 0; round < 3; round++) {
      // No Content-Length: the body is sent chunked.
      const refused = await post(new Uint8Array(300 * 1024).fill(0x20), true);
      assert.equal(refused.status, 413, refused.text);
      assert.equal((JSON.parse(refused.text) as { code: string }).code, "payload_too_large");
      const next = await post(prices, false);
      assert.equal(next.status, 200, next.text);
      assert.equal(next.reused, true, "the next request went out on the refused request's connection");
      assert.ok(Array.isArray(JSON.parse(next.text).ana), next.text);
    }
  });

  it("removes the e-mails it wrote once it has stopped", async () => {
    const start = new Date(Date.now() + 40 * 86_400_000);
    start.setUTCDate(start.getUTCDate() + ((6 - start.getUTCDay() + 7) % 7));
    const day = (offset: number) => new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}/widget/v1/demo${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const guest = { first_name: "Tmp", last_name: "Files", gender: "m", birth_date: "1990-01-01", package: { id: 101, accommodation_id: 201, start_date: day(0), end_date: day(7) } };
    const added = await post("/bookings/add", { currency: "EUR", guests: [guest] });
    const cart = (await added.json()) as { cart_id: string };
    assert.equal(added.status, 201, JSON.stringify(cart));
    const customer = { first_name: "Tmp", last_name: "Files", email: "tmp.files@example.com", phone: "912345678", phone_countrycode: 351, country: "Portugal", birth_date: "1980-01-01" };
    const booked = await post(`/carts/${cart.cart_id}/checkout`, { terms_accepted: true, customer });
    assert.equal(booked.status, 200, await booked.text());
    const emails = () =>
      readdirSync(server.tmpDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith(".eml")).length;
    // The confirmation and the owner's notification reach the binding (a bounded wait for the condition).
    const deadline = Date.now() + 20_000;
    while (emails() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(emails() >= 2, "the local binding wrote the booking's e-mails");
    await server.stop();
    assert.equal(existsSync(server.tmpDir), false, `${server.tmpDir} is left after the stop`);
  });
});
