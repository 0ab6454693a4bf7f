/**
 * A crash loses nothing that was answered: the server's whole process group is killed at once
 * (SIGKILL: no shutdown, as a power cut or an out-of-memory kill), then started again on the same
 * state. Carts and bookings it had answered are there, an open cart can still be checked out, and
 * the expiry alarm its business got before the crash still abandons a cart and releases its holds
 * after.
 *
 * Nothing here races the wall clock: the carts checked out after the restart live the demo's ten
 * minutes, and the one left to expire is seen held in D1 while the server is down (no alarm can
 * ring then), so its sweep after the restart is the alarm's, however long the restart took. The
 * sweep is awaited as a condition with a generous deadline, read over HTTP on the test clock
 * (ALLOW_TEST_CLOCK=1): asked as of a moment before its expiry, the cart answers "open" until the
 * alarm has marked it abandoned.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isoDay, saturdayAfter } from "../../../e2e/bench/seed-scale";
import { startServer, type RunningServer } from "../../scripts/server";
import { get, npmRun, stateExec, stateQuery } from "./helpers";

/**
 * The lifetime of the cart left to expire: long enough for its add and one read to be answered
 * before the crash (nothing else has to happen in it), short enough for the test to see its alarm.
 */
const LEFT_LIFETIME_SECONDS = 15;
/** How long the sweep may take after the restart or the expiry, whichever is later: generous, for a busy machine. */
const SWEEP_DEADLINE_MS = 120_000;

describe("a crash and a restart on the same state", () => {
  let persistTo: string;
  let server: RunningServer;
  let publicKey = "";
  let privateKey = "";
  const at = () => ["--persist-to", persistTo];

  async function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
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
      await stateQuery<{ status: string; unreleased: number }>({ persistTo }, [
        {
          sql: "SELECT status, (SELECT COUNT(*) FROM allocations WHERE cart_id = ? AND booking_id IS NULL AND released_at IS NULL) AS unreleased FROM carts WHERE id = ?",
          params: [id, id],
        },
      ])
    )[0][0];

  const setLifetime = (seconds: number) =>
    stateExec({ persistTo }, [{ sql: "UPDATE businesses SET config = json_set(config, '$.cart_lifetime_seconds', ?) WHERE slug = 'demo'", params: [seconds] }]);
  /** The test clock is on for this server only (X-Test-Now), to read a cart as of a given moment. */
  const start = () => startServer({ persistTo, env: { ALLOW_TEST_CLOCK: "1" } });

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "crash-test-"));
    server = await start();
    await setLifetime(600);
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

  it("keeps answered carts and bookings, checks out a cart opened before, and the expiry alarm set before sweeps after", async () => {
    const booked = await add(1);
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    const booking = await checkout(booked.body.cart_id, 1);
    assert.equal(booking.status, 200, JSON.stringify(booking.body));
    const kept = await add(2); // checked out after the restart
    assert.equal(kept.status, 201);
    // Left to expire: only the expiry alarm, set before the crash, can sweep it.
    await setLifetime(LEFT_LIFETIME_SECONDS);
    const left = await add(3);
    assert.equal(left.status, 201);
    assert.ok(left.body.seconds_left <= LEFT_LIFETIME_SECONDS, `a cart of ${LEFT_LIFETIME_SECONDS} s, not ${left.body.seconds_left} s`);
    const expiresAt = Date.parse(left.body.expiry_date);
    // Its answer is out and its timer armed after it (the add's own after-answer work); read once more.
    assert.equal((await get(`${server.url}/api/pub/v2/carts/${left.body.cart_id}`, publicKey)).body.status, "open");

    await server.crash();
    await assert.rejects(fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2000) }), "nothing answers after the crash");
    // Held at the crash: with the server down nothing sweeps it, so whatever sweeps it comes after the restart.
    const atCrash = await cartRow(left.body.cart_id);
    assert.equal(atCrash.status, "open", "open when the server died (swept before the crash: the test would prove less)");
    assert.ok(atCrash.unreleased > 0, "its holds live when the server died");
    server = await start();
    const restarted = Date.now();

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

    // The business's expiry alarm, set before the crash, abandons the left cart and releases its
    // hold. Asked as of a second before its expiry, the cart answers "open" until it is swept.
    const beforeExpiry = { "X-Test-Now": new Date(expiresAt - 1000).toISOString() };
    const asBefore = () => call("GET", `/api/pub/v2/carts/${left.body.cart_id}`, publicKey, undefined, beforeExpiry);
    const deadline = Math.max(restarted, expiresAt) + SWEEP_DEADLINE_MS;
    let seen = await asBefore();
    while (seen.body.status === "open" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await asBefore();
    }
    assert.deepEqual({ status: seen.body.status, abandon_reason: seen.body.abandon_reason }, { status: "abandoned", abandon_reason: "expired" }, "swept by the alarm set before the crash");
    assert.deepEqual({ ...(await cartRow(left.body.cart_id)) }, { status: "abandoned", unreleased: 0 }, "its hold released");
  });
});
