/**
 * A refused body leaves the server healthy (issue 28): after a chunked body over the 256 KiB
 * limit is answered 413, the next request on the same connection is served. Before the fix the
 * rest of the body stayed unread and the next POST got the runtime's 503 "Your worker restarted
 * mid-request", on a real `wrangler dev`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/server";

describe("a chunked body over the limit", () => {
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

  it("is refused with 413, and the next POST is answered as usual, three times over", async () => {
    // The demo's surf week (product 101) starts on Saturdays: the first Saturday a month ahead.
    const start = new Date(Date.now() + 30 * 86_400_000);
    start.setUTCDate(start.getUTCDate() + ((6 - start.getUTCDay() + 7) % 7));
    const day = (offset: number) => new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const prices = JSON.stringify({ guests: [{ unique_id: "ana", gender: "m", package: { id: 101, accommodation_id: 201, start_date: day(0), end_date: day(7) } }] });
    for (let round = 0; round < 3; round++) {
      // No Content-Length: the body is a stream, sent chunked.
      const big = new Uint8Array(300 * 1024).fill(0x20);
      const body = new ReadableStream({ start: (c) => (c.enqueue(big), c.close()) });
      const refused = await fetch(`${server.url}/widget/v1/demo/packages/prices`, { method: "POST", headers: { "Content-Type": "application/json" }, body, duplex: "half" } as RequestInit);
      assert.equal(refused.status, 413);
      assert.equal(((await refused.json()) as { code: string }).code, "payload_too_large");
      const next = await fetch(`${server.url}/widget/v1/demo/packages/prices`, { method: "POST", headers: { "Content-Type": "application/json" }, body: prices });
      const text = await next.text();
      assert.equal(next.status, 200, text);
      assert.ok(Array.isArray(JSON.parse(text).ana), text);
    }
  });
});
