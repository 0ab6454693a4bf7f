/**
 * Cart writes at the same moment, as separate HTTP requests to a real server (wrangler dev on
 * workerd, not one test context). Their batches meet in the business's cart desk (a Durable
 * Object, durable/cart-desk.ts) and leave together; no request waits on another's promise, so
 * clients that go away mid-request, a sold-out refusal among successful adds, a checkout racing
 * its own DELETE, and the desk dying between its commit and its answer all get right answers, and
 * the database agrees with them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isoDay, saturdayAfter } from "../../../e2e/bench/seed-scale";
import { startServer, type RunningServer } from "../../scripts/server";
import { npmRun, stateExec, stateQuery } from "./helpers";

/** The women's dorm of the demo package: its beds per night are what these tests race for. */
const PACKAGE = 101;
const DORM = 202;
/** A request that does not answer in this time is stuck behind something: the test fails. */
const HANG = 15_000;

describe("concurrent cart writes on a real server", () => {
  let persistTo: string;
  let server: RunningServer;
  let key = "";

  async function call(method: string, path: string, body?: unknown, signal: AbortSignal = AbortSignal.timeout(HANG), headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/api/pub/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      signal,
    });
    return { status: res.status, replayed: res.headers.get("Idempotent-Replayed") === "true", body: (await res.json()) as any };
  }
  const addBody = (week: string, n: number) => ({
    currency: "EUR",
    guests: [{ first_name: "Race", last_name: `Guest ${n}`, gender: "f", birth_date: "1991-04-04", package: { id: PACKAGE, start_date: week, end_date: isoDay(week, 7), accommodation_id: DORM } }],
  });
  const add = (week: string, n: number, signal?: AbortSignal) => call("POST", "/bookings/add", addBody(week, n), signal);
  /** Beds of the dorm held or booked on the week's first night, as D1 counts them. */
  const liveUnits = async (week: string) =>
    (
      await stateQuery<{ n: number }>({ persistTo }, [
        {
          sql: `SELECT COALESCE(SUM(qty), 0) AS n FROM allocations
                 WHERE product_id = ? AND date = ? AND released_at IS NULL AND (booking_id IS NOT NULL OR expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
          params: [DORM, week],
        },
      ])
    )[0][0].n;
  /** The dorm's beds on each night of the week (an inventory row overrides the rooms × beds default). */
  const setBeds = (week: string, beds: number) =>
    stateExec(
      { persistTo },
      Array.from({ length: 7 }, (_, i) => ({
        sql: "INSERT OR REPLACE INTO inventory (business_id, product_id, date, slot, capacity, blocked) SELECT business_id, id, ?, '', ?, 0 FROM products WHERE id = ?",
        params: [isoDay(week, i), beds, DORM],
      })),
    );

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "cart-race-"));
    // The test switches on (ALLOW_TEST_CLOCK=1): X-Test-Desk-Fault makes the cart desk die on cue.
    server = await startServer({ persistTo, env: { ALLOW_TEST_CLOCK: "1" } });
    // Many carts of one key at once, as an integrator's busy site opens them.
    await stateExec({ persistTo }, [{ sql: "UPDATE businesses SET config = json_set(config, '$.max_open_carts_per_client', 1000) WHERE slug = 'demo'", params: [] }]);
    const made = await npmRun("keys", ["create", "--business", "demo", "--scope", "public", "--name", "race", "--persist-to", persistTo]);
    assert.equal(made.code, 0, made.stderr);
    key = made.stdout.trim();
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("twelve buyers for five beds at once: five carts, seven sold_out, and D1 holds exactly five", async () => {
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 35);
    await setBeds(week, 5);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => add(week, n)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(201), ...Array(7).fill(409)], JSON.stringify(answers.map((a) => a.body.code ?? a.status)));
    for (const refused of answers.filter((a) => a.status === 409)) assert.equal(refused.body.code, "sold_out");
    assert.equal(await liveUnits(week), 5);
    // And the thirteenth, later, is refused the same way.
    assert.equal((await add(week, 13)).body.code, "sold_out");
  });

  it("clients that go away mid-request leave every bed either held by a cart that exists or free", async () => {
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 42);
    await setBeds(week, 8);
    // Six clients abort after a few milliseconds (some before, some after their write), two stay:
    // enough beds for all, so the two get theirs whatever the six did.
    const aborted = Array.from({ length: 6 }, (_, n) => add(week, n, AbortSignal.timeout(2 + n * 3)).catch(() => null));
    const stayed = [add(week, 100), add(week, 101)];
    const kept = await Promise.all(stayed);
    await Promise.all(aborted);
    for (const answer of kept) assert.equal(answer.status, 201, JSON.stringify(answer.body));
    // What the cut requests made is in D1 whole or not at all: every live bed belongs to an open cart.
    const rows = (
      await stateQuery<{ carts: number; units: number }>({ persistTo }, [
        {
          sql: `SELECT COUNT(DISTINCT c.id) AS carts, COALESCE(SUM(a.qty), 0) AS units FROM allocations a JOIN carts c ON c.id = a.cart_id
                 WHERE a.product_id = ? AND a.date = ? AND a.released_at IS NULL AND c.status = 'open'`,
          params: [DORM, week],
        },
      ])
    )[0][0];
    assert.equal(rows.units, rows.carts, "one bed per cart of one guest");
    assert.equal(await liveUnits(week), rows.units);
    assert.ok(rows.carts >= 2 && rows.carts <= 8);
    // The beds nobody holds are still sold: exactly 8 - held more adds succeed, the rest sold_out.
    const more = await Promise.all(Array.from({ length: 8 }, (_, n) => add(week, 200 + n)));
    assert.equal(more.filter((a) => a.status === 201).length, 8 - rows.units);
    assert.equal(await liveUnits(week), 8);
  });

  it("a checkout racing its own DELETE: one of them wins, the other is told, and D1 agrees", async () => {
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 49);
    await setBeds(week, 20);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const opened = await add(week, n);
        assert.equal(opened.status, 201, JSON.stringify(opened.body));
        const cartId = opened.body.cart_id as string;
        const [checkout, removal] = await Promise.all([
          call("POST", `/carts/${cartId}/checkout`, {
            terms_accepted: true,
            customer: { first_name: "Race", last_name: `Booker ${n}`, email: `race.${n}.${week}@example.com`, phone: "912345678", phone_countrycode: 351 },
          }),
          call("DELETE", `/carts/${cartId}`),
        ]);
        const cart = (await call("GET", `/carts/${cartId}`)).body;
        return { cartId, checkout, removal, cart };
      }),
    );
    for (const { checkout, removal, cart } of outcomes) {
      if (checkout.status === 200) {
        // Booked first: the DELETE found it checked out.
        assert.equal(removal.status, 409, JSON.stringify(removal.body));
        assert.equal(removal.body.code, "cart_not_open");
        assert.equal(cart.status, "checked_out");
        assert.ok(cart.booking?.reference);
      } else {
        // Abandoned first: the checkout found it gone, nothing was booked.
        assert.equal(removal.status, 200, JSON.stringify(removal.body));
        assert.deepEqual(removal.body, { success: true });
        assert.equal(checkout.status, 409, JSON.stringify(checkout.body));
        assert.equal(checkout.body.code, "cart_not_open");
        assert.equal(cart.status, "abandoned");
      }
    }
    const booked = outcomes.filter((o) => o.checkout.status === 200).length;
    const counts = (
      await stateQuery<{ bookings: number; booked: number; held: number }>({ persistTo }, [
        {
          sql: `SELECT (SELECT COUNT(*) FROM bookings WHERE cart_id IN (SELECT value FROM json_each(?))) AS bookings,
                       (SELECT COALESCE(SUM(qty), 0) FROM allocations WHERE product_id = ? AND date = ? AND booking_id IS NOT NULL AND released_at IS NULL) AS booked,
                       (SELECT COALESCE(SUM(qty), 0) FROM allocations WHERE product_id = ? AND date = ? AND booking_id IS NULL AND released_at IS NULL) AS held`,
          params: [JSON.stringify(outcomes.map((o) => o.cartId)), DORM, week, DORM, week],
        },
      ])
    )[0][0];
    assert.deepEqual(counts, { bookings: booked, booked, held: 0 });
  });

  it("the cart desk dies after its batch committed: the clients told 503 get, with their Idempotency-Key, the cart it made; D1 agrees; never oversold", async () => {
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 56);
    const beds = 10;
    await setBeds(week, beds);
    const keyOf = (n: number) => `desk-crash-${week}-${n}`;
    const addWithKey = (n: number, headers: Record<string, string> = {}) =>
      call("POST", "/bookings/add", addBody(week, n), AbortSignal.timeout(HANG), { "Idempotency-Key": keyOf(n), ...headers });
    // Seven buyers at once; the desk dies once the round that carries buyer 0's batch committed,
    // before it answers anyone. Enough beds for all of them.
    const first = await Promise.all(Array.from({ length: 7 }, (_, n) => addWithKey(n, n === 0 ? { "X-Test-Desk-Fault": "crash-after-commit" } : {})));
    for (const answer of first) assert.ok([201, 503].includes(answer.status), JSON.stringify(answer));
    assert.equal(first[0].status, 503, "the buyer whose round the desk died in is told so");
    assert.equal(first[0].body.code, "carts_unavailable");
    assert.equal(first[0].body.status, 503);
    // Its batch was committed whole: its cart holds its bed, though nobody was told of it yet.
    const madeBefore = (
      await stateQuery<{ n: number }>({ persistTo }, [{ sql: "SELECT COUNT(*) AS n FROM idempotency WHERE key LIKE ? AND resource IS NOT NULL", params: [`% ${keyOf(0)}`] }])
    )[0][0].n;
    assert.equal(madeBefore, 1, "the crashed round's write is in D1, recorded on its key");

    // Every buyer told 503 sends the same request again with the same key: the cart made before
    // the crash is answered (replayed), or, when nothing was made, the add runs now.
    const final = await Promise.all(first.map((answer, n) => (answer.status === 503 ? addWithKey(n) : Promise.resolve(answer))));
    for (const answer of final) assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(final[0].replayed, true, "buyer 0's cart, made before the crash, not a second one");
    const cartIds = final.map((a) => a.body.cart_id as string);
    assert.equal(new Set(cartIds).size, 7, "one cart per buyer");
    // D1 holds exactly those carts for the week, one bed each: nothing half made, nothing twice.
    const rows = (
      await stateQuery<{ carts: number; units: number; ours: number }>({ persistTo }, [
        {
          sql: `SELECT COUNT(DISTINCT c.id) AS carts, COALESCE(SUM(a.qty), 0) AS units,
                       COUNT(DISTINCT CASE WHEN c.id IN (SELECT value FROM json_each(?)) THEN c.id END) AS ours
                  FROM allocations a JOIN carts c ON c.id = a.cart_id
                 WHERE a.product_id = ? AND a.date = ? AND a.released_at IS NULL AND c.status = 'open'`,
          params: [JSON.stringify(cartIds), DORM, week],
        },
      ])
    )[0][0];
    assert.deepEqual({ ...rows }, { carts: 7, units: 7, ours: 7 });

    // The desk serves again, and the beds left are sold exactly: three more carts, the rest sold_out.
    const more = await Promise.all(Array.from({ length: 6 }, (_, n) => add(week, 300 + n)));
    assert.equal(more.filter((a) => a.status === 201).length, beds - 7, JSON.stringify(more.map((a) => a.body.code ?? a.status)));
    for (const refused of more.filter((a) => a.status !== 201)) assert.equal(refused.body.code, "sold_out");
    assert.equal(await liveUnits(week), beds);
  });
});
