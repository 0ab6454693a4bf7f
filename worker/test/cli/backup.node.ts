/**
 * `npm run backup`: a database holding businesses, a booking and persons, exported and restored
 * into a fresh state directory, answers the same: the catalog, the booking, the persons' search
 * (the FTS5 table the export leaves out and the restore rebuilds), the places left (issue 32).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { isoDay, saturdayAfter } from "../../../e2e/bench/seed-scale";
import { startServer, type RunningServer } from "../../scripts/server";
import { npmRun } from "./helpers";

const from = mkdtempSync(join(tmpdir(), "backup-from-"));
const into = mkdtempSync(join(tmpdir(), "backup-into-"));
const file = join(tmpdir(), `backup-${process.pid}.json`);
after(() => {
  for (const d of [from, into]) rmSync(d, { recursive: true, force: true });
  rmSync(file, { force: true });
});

describe("backup and restore", () => {
  it("restores into a fresh database that answers as the original did", async () => {
    let server: RunningServer = await startServer({ persistTo: from });
    const key = (scope: string) => npmRun("keys", ["create", "--business", "demo", "--scope", scope, "--name", `backup-${scope}`, "--persist-to", from]).then((r) => r.stdout.trim());
    const pub = await key("public");
    const priv = await key("private");
    const call = async (base: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: body ? "POST" : "GET",
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 35);
    const added = await call(server.url, "/api/pub/v2/bookings/add", pub, {
      currency: "EUR",
      guests: [{ first_name: "Xaver", last_name: "Quillfeather", gender: "m", birth_date: "1988-02-02", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 201 } }],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const booked = await call(server.url, `/api/pub/v2/carts/${added.body.cart_id}/checkout`, pub, {
      terms_accepted: true,
      customer: { first_name: "Xaver", last_name: "Quillfeather", email: "xaver.backup@example.com", phone: "912345678", phone_countrycode: 351 },
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    const reads = [
      ["/api/pub/v2/products", pub],
      [`/api/pub/v2/products/201/availabilities?start_date=${week}&end_date=${isoDay(week, 6)}`, pub],
      [`/private/bookings/${booked.body.id}`, priv],
      ["/private/persons?query=quillfeather", priv],
      ["/api/pub/v2/settings", pub],
    ] as const;
    const answersOf = async (base: string) => Promise.all(reads.map(async ([path, token]) => (await call(base, path, token)).body));
    const before = await answersOf(server.url);
    assert.ok((before[3].length ?? before[3].data?.length) >= 1, "the search finds the booker");
    await server.stop();

    const exported = await npmRun("backup", ["export", "--file", file, "--persist-to", from]);
    assert.equal(exported.code, 0, exported.stderr);
    const restored = await npmRun("backup", ["restore", "--file", file, "--persist-to", into]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /search table was rebuilt/);
    // a second restore into the same (no longer fresh) database is refused
    const again = await npmRun("backup", ["restore", "--file", file, "--persist-to", into]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds/);

    server = await startServer({ persistTo: into });
    try {
      assert.deepEqual(await answersOf(server.url), before);
    } finally {
      await server.stop();
    }
  });
});
