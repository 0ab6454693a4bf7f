/**
 * A crash loses nothing that was answered: the server's whole process group is killed at once
 * (SIGKILL: no shutdown, as a power cut or an out-of-memory kill), then started again on the same
 * state. Carts and bookings it had answered are there, an open cart can still be checked out, and
 * the expiry alarm its business got before the crash still abandons a cart and releases its holds
 * after.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isoDay, saturdayAfter } from "../../../e2e/bench/seed-scale";
import { d1ExecuteScript, d1Query } from "../../scripts/lib/wrangler-d1";
import { startServer, type RunningServer } from "../../scripts/server";
import { get, npmRun } from "./helpers";

/** Short enough for a test to see the alarm fire, long enough to outlive the crash and restart. */
const LIFETIME_SECONDS = 20;

describe("a crash and a restart on the same state", () => {
  let persistTo: string;
  let server: RunningServer;
  let publicKey = "";
  let privateKey = "";
  const at = () => ["--persist-to", persistTo];

  async function call(method: string, path: string, key: string, body?: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const week = saturdayAfter(new Date().toISOString().slice(0, 10), 21); // the package's check-in day
  const add = (n: number) =>
    call("POST", "/api/pub/v2/bookings/add", publicKey, {
      currency: "EUR",
      guests: [{ first_name: "Crash", last_name: `Guest ${n}`, gender: "f", birth_date: "1990-05-05", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 202 } }],
    });
  const checkout = (cartId: string, n: number) =>
    call("POST", `/api/pub/v2/carts/${cartId}/checkout`, publicKey, {
      terms_accepted: true,
      customer: { first_name: "Crash", last_name: `Booker ${n}`, email: `crash.${n}@example.com`, phone: "912345678", phone_countrycode: 351 },
    });
  const cartRow = async (id: string) =>
    (
      await d1Query<{ status: string; unreleased: number }>({ persistTo }, [
        {
          sql: "SELECT status, (SELECT COUNT(*) FROM allocations WHERE cart_id = ? AND booking_id IS NULL AND released_at IS NULL) AS unreleased FROM carts WHERE id = ?",
          params: [id, id],
        },
      ])
    )[0][0];

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "crash-test-"));
    server = await startServer({ persistTo });
    await d1ExecuteScript({ persistTo }, [
      { sql: `UPDATE businesses SET config = json_set(config, '$.cart_lifetime_seconds', ${LIFETIME_SECONDS}) WHERE slug = 'demo'`, params: [] },
    ]);
    const make = async (scope: string) => {
      const ran = await npmRun("keys", ["create", "--business", "demo", "--scope", scope, "--name", `crash-${scope}`, ...at()]);
      assert.equal(ran.code, 0, ran.stderr);
      return ran.stdout.trim();
    };
    publicKey = await make("public");
    privateKey = await make("private");
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("keeps answered carts and bookings, checks out a cart opened before, and the expiry alarm fires after", async () => {
    const booked = await add(1);
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    const booking = await checkout(booked.body.cart_id, 1);
    assert.equal(booking.status, 200, JSON.stringify(booking.body));
    const kept = await add(2); // checked out after the restart
    const left = await add(3); // left to expire: only the expiry alarm, set before the crash, can sweep it
    assert.equal(kept.status, 201);
    assert.equal(left.status, 201);
    const expiresAt = Date.parse(left.body.expiry_date);

    await server.crash();
    await assert.rejects(fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2000) }), "nothing answers after the crash");
    server = await startServer({ persistTo });
    assert.ok(Date.now() < expiresAt, "the restart came back before the cart's expiry (else the test proves less)");

    // What was answered before the crash is all there.
    const found = await get(`${server.url}/private/bookings/${booking.body.id}`, privateKey);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.data.reference_number, booking.body.reference_number);
    const open = await get(`${server.url}/api/pub/v2/carts/${kept.body.cart_id}`, publicKey);
    assert.equal(open.status, 200);
    assert.equal(open.body.status, "open");
    assert.equal(open.body.guests.length, 1);

    // The cart opened before the crash checks out after it, once.
    const late = await checkout(kept.body.cart_id, 2);
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.equal(late.body.reference_number, booking.body.reference_number + 1, "the next reference number: none lost or reused");
    assert.equal((await checkout(kept.body.cart_id, 2)).status, 409, "a second checkout of the same cart books nothing");

    // The left cart is still open and holding until its expiry ...
    const before = await cartRow(left.body.cart_id);
    assert.equal(before.status, "open");
    assert.ok(before.unreleased > 0, "its holds are live");
    // ... and then the business's expiry alarm, set before the crash, abandons it and releases its hold.
    const deadline = expiresAt + 30_000;
    let row = await cartRow(left.body.cart_id);
    while (row.status === "open" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      row = await cartRow(left.body.cart_id);
    }
    assert.deepEqual({ ...row }, { status: "abandoned", unreleased: 0 }, "swept by the alarm set before the crash");
  });
});
