/**
 * Shards (docs/design.md "Shards"; issue 32): a business lives wholly on one of two D1 databases
 * (DB, DB_SHARD_1), the directory on DB says which, every door sends the business's reads and
 * writes there, and a business moves between them (copy, verify, switch, delete) with its writes
 * refused for the move's duration, every answer the same after, and nothing lost.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBusiness as makeBusiness } from "../src/manage/businesses";
import { moveBusiness } from "../src/manage/shards";
import { runMaintenance } from "../src/db/maintenance";
import { businessTables } from "../src/db/shard-move";
import { ID_SPAN, RANGED_KEYS } from "../src/db/id-range";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { diveCatalog } from "../seed/demo";
import { addToCart, cartBusiness, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { DIRECTORY_READ_TTL_MS, forgetEntriesOf } from "../src/db/shards";
import { MAY_SAT } from "./catalog-fixtures";
import { addDays } from "../src/lib/time";
import { DEMO_BUSINESS_ID, call, callJson, createBusiness, createKey, dbOf } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

const NOW = "2026-11-21T10:00:00.000Z";

/**
 * A move without its wall-clock wait for the reads sent on a directory entry remembered before the
 * switch (that wait has its own test, "never loses an add or a checkout ..."): the old shard's rows
 * go at once, and this process forgets its entry at once, as it would DIRECTORY_READ_TTL_MS later.
 */
async function moveAtOnce(businessId: number, to: number, log?: (line: string) => void) {
  const report = await moveBusiness(env, businessId, to, { now: new Date(NOW), graceMs: 0, staleReadsMs: 0, log });
  forgetEntriesOf(businessId);
  return report;
}

const actor = { kind: "cli" as const, id: "shards-test", name: "shards test" };

const rowsOf = async (db: D1Database, table: string, businessId: number) =>
  (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE business_id = ?`).bind(businessId).first<{ n: number }>())!.n;
const directory = (businessId: number) => env.DB.prepare("SELECT shard, moving_since FROM shard_directory WHERE business_id = ?").bind(businessId).first<{ shard: number; moving_since: string | null }>();

/** Every GET of both APIs that names no object, and every booking of the business by its id: status and body. */
async function everyAnswer(keys: { private: string; public: string }): Promise<Record<string, unknown>> {
  const doc = (await callJson("/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
  const paths = Object.entries(doc.paths)
    .filter(([path, ops]) => ops.get && !path.includes("{") && (path.startsWith("/private/") || path.startsWith("/api/pub/v2/")))
    .map(([path]) => path);
  const answers: Record<string, unknown> = {};
  const read = async (path: string) => {
    const res = await callJson(path, { key: path.startsWith("/private/") ? keys.private : keys.public, now: NOW });
    const { request_id: _r, ...body } = (res.body ?? {}) as Record<string, unknown>;
    answers[path] = { status: res.status, body };
    return res;
  };
  for (const path of paths) await read(path);
  const bookings = ((await read("/private/bookings?limit=100")).body as { data: { id: string }[] }).data;
  for (const b of bookings) {
    await read(`/private/bookings/${b.id}`);
    await read(`/private/bookings/${b.id}/payments`);
  }
  expect(paths.length).toBeGreaterThan(15);
  expect(bookings.length).toBeGreaterThanOrEqual(2);
  return answers;
}

describe("shards", () => {
  it("moves a business with bookings to the other shard and back: every answer the same, its writes refused during the move, nothing lost", async () => {
    const keys = { private: await createKey("private"), public: await createKey("public") };
    const products = (await env.DB.prepare("SELECT id, type FROM products WHERE business_id = ? ORDER BY id LIMIT 1").bind(DEMO_BUSINESS_ID).first<{ id: number; type: string }>())!;
    for (const name of ["Ana", "Rui"]) {
      await createBookingFixture({
        booker: { first_name: name, last_name: "Moved", email: uniqueEmail(name.toLowerCase()) },
        guests: [{ first_name: name, last_name: "Guest" }],
        totalMinor: 42_000,
        lines: [{ product_id: products.id, product_type: products.type, dates: ["2026-12-05"], price_minor: 42_000 }],
      });
    }
    // A payment on the ledger moves with its booking (the ledger and the booking's paid amounts answer the same).
    const first = ((await callJson("/private/bookings?limit=1", { key: keys.private, now: NOW })).body as { data: { id: string; currency: string }[] }).data[0];
    const paid = await callJson(`/private/bookings/${first.id}/payments`, { key: keys.private, now: NOW, body: { amount: 120, currency: first.currency, method: "cash" } });
    expect(paid.status).toBe(201);
    const before = await everyAnswer(keys);
    expect(JSON.stringify(before)).toContain('"amount_paid":120');
    const bookingsBefore = await rowsOf(env.DB, "bookings", DEMO_BUSINESS_ID);

    // A write and two reads sent while the move runs (right after the directory marks it): a price
    // quote is a POST that only reads, and is answered as a read.
    const quote = () =>
      callJson("/api/pub/v2/packages/prices", {
        key: keys.public,
        now: NOW,
        body: { currency: "EUR", guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: MAY_SAT, end_date: addDays(MAY_SAT, 7), accommodation_id: 201 } }] },
      });
    const quoted = await quote();
    expect(quoted.status).toBe(200);
    let during: Promise<Awaited<ReturnType<typeof callJson>>[]> | undefined;
    const report = await moveAtOnce(DEMO_BUSINESS_ID, 1, (line) => {
      if (line.startsWith("marked")) {
        during = Promise.all([
          callJson("/private/persons", { key: keys.private, now: NOW, body: { first_name: "Late", last_name: "Writer", email: uniqueEmail("late") } }),
          callJson("/private/settings", { key: keys.private, now: NOW }),
          quote(),
        ]);
      }
    });
    const [write, read, quotedDuring] = await during!;
    expect(write.status).toBe(503);
    expect(write.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
    expect(write.headers.get("Retry-After")).toBe("30");
    expect(write.body).toMatchObject({ code: "business_moving" });
    expect(read.status).toBe(200);
    expect([quotedDuring.status, quotedDuring.body]).toEqual([200, quoted.body]);

    expect(report).toMatchObject({ businessId: DEMO_BUSINESS_ID, from: 0, to: 1 });
    expect(report.tables.find((t) => t.name === "bookings")?.rows).toBe(bookingsBefore);
    expect(await directory(DEMO_BUSINESS_ID)).toEqual({ shard: 1, moving_since: null });
    // Wholly on shard 1, nothing left on shard 0.
    expect(await rowsOf(env.DB_SHARD_1, "bookings", DEMO_BUSINESS_ID)).toBe(bookingsBefore);
    expect(await rowsOf(env.DB, "bookings", DEMO_BUSINESS_ID)).toBe(0);
    expect(await rowsOf(env.DB, "products", DEMO_BUSINESS_ID)).toBe(0);
    expect(await env.DB.prepare("SELECT id FROM businesses WHERE id = ?").bind(DEMO_BUSINESS_ID).first()).toBeNull();
    expect(await everyAnswer(keys)).toEqual(before);

    // The refused write, sent again, is taken, on shard 1; the persons' search finds moved and new persons alike.
    const again = await callJson("/private/persons", { key: keys.private, now: NOW, body: { first_name: "Late", last_name: "Writer", email: uniqueEmail("late") } });
    expect(again.status).toBe(201);
    expect(await env.DB_SHARD_1.prepare("SELECT COUNT(*) AS n FROM persons WHERE business_id = ? AND last_name = 'Writer'").bind(DEMO_BUSINESS_ID).first("n")).toBe(1);
    const search = await callJson("/private/persons?query=Moved", { key: keys.private, now: NOW });
    expect((search.body as { data: unknown[] }).data.length).toBe(2);

    // And back: the same again.
    const onShard1 = await everyAnswer(keys);
    await moveAtOnce(DEMO_BUSINESS_ID, 0);
    expect(await directory(DEMO_BUSINESS_ID)).toEqual({ shard: 0, moving_since: null });
    expect(await rowsOf(env.DB_SHARD_1, "bookings", DEMO_BUSINESS_ID)).toBe(0);
    expect(await everyAnswer(keys)).toEqual(onShard1);
  }, 120_000);

  it("gives a move up when the copy is refused: the business stays, answers the same and takes writes again", async () => {
    const keys = { private: await createKey("private"), public: await createKey("public") };
    // Ids are unique across shards (the next test); a clash is forced here, as a shard set up
    // without its id range would make one: a business on shard 1 with a currency of the demo's id.
    const other = await createBusiness("shards-collide", {}, 1);
    const demoCurrency = await env.DB.prepare("SELECT id FROM currencies WHERE business_id = ? LIMIT 1").bind(DEMO_BUSINESS_ID).first<number>("id");
    await env.DB_SHARD_1.prepare("INSERT INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (?, ?, 'USD', 'Dollar', '$', 1, 0)").bind(demoCurrency, other).run();
    const before = await everyAnswer(keys);
    await expect(moveBusiness(env, DEMO_BUSINESS_ID, 1, { now: new Date(NOW), graceMs: 0, staleReadsMs: 0 })).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/copy into shard 1 was refused/) });
    expect(await directory(DEMO_BUSINESS_ID)).toEqual({ shard: 0, moving_since: null });
    expect(await rowsOf(env.DB_SHARD_1, "products", DEMO_BUSINESS_ID)).toBe(0);
    expect(await everyAnswer(keys)).toEqual(before);
    expect((await callJson("/private/persons", { key: keys.private, now: NOW, body: { first_name: "After", last_name: "Refusal", email: uniqueEmail("after") } })).status).toBe(201);
  });

  it("places new businesses on the shard with fewest, and every door serves one on shard 1 from shard 1", async () => {
    const ids = [];
    for (const slug of ["placed-a", "placed-b"]) {
      ids.push(await makeBusiness(env, actor, { slug, title: `Placed ${slug}`, currency: { isoCode: "EUR", title: "Euro", symbol: "€" } }, new Date(NOW)));
    }
    const shards = await Promise.all(ids.map(async (id) => (await directory(id))!.shard));
    expect(new Set(shards)).toEqual(new Set([0, 1]));
    const onOne = ids[shards.indexOf(1)];
    const slug = onOne === ids[0] ? "placed-a" : "placed-b";
    expect(await env.DB.prepare("SELECT id FROM businesses WHERE id = ?").bind(onOne).first()).toBeNull();
    expect(await env.DB_SHARD_1.prepare("SELECT slug FROM businesses WHERE id = ?").bind(onOne).first("slug")).toBe(slug);
    // A slug is unique across shards.
    await expect(makeBusiness(env, actor, { slug, title: "Again", currency: { isoCode: "EUR", title: "Euro", symbol: "€" } }, new Date(NOW))).rejects.toMatchObject({ status: 409 });

    const key = await createKey("private", onOne);
    const settings = await callJson("/private/settings", { key, now: NOW });
    expect(settings.status).toBe(200);
    const patched = await callJson("/private/settings", { key, now: NOW, method: "PATCH", body: { widget_origins: ["https://placed.example"] } });
    expect(patched.status).toBe(200);
    expect(await env.DB_SHARD_1.prepare("SELECT config FROM businesses WHERE id = ?").bind(onOne).first<string>("config")).toContain("https://placed.example");
    expect((await call(`/widget/v1/${slug}/settings`, { headers: { Origin: "https://placed.example" } })).status).toBe(200);
    expect((await call(`/book/${slug}`)).status).toBe(200);
    const signIn = await call(`/admin/${slug}/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain(`Placed ${slug}`);
  });

  it("never loses an add or a checkout sent on a directory entry read before a move: the shard it left refuses it whole (503), and the next reads the directory and goes to the new shard", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 50);
    const from = (await directory(businessId))?.shard ?? 0;
    const to = from === 0 ? 1 : 0;
    const t = clock(NOW);
    const { start, end } = stay(2);
    const cartsOn = async (shard: number) => rowsOf(shard === 0 ? env.DB : env.DB_SHARD_1, "carts", businessId);
    // This process reads the directory for this add and remembers the entry (shard `from`) for a few seconds.
    const read = Date.now();
    const first = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    expect(first.status).toBe(201);
    const checkout = (at: number) =>
      callJson(`/api/pub/v2/carts/${first.body.cart_id}/checkout`, { key, now: t(at), body: { terms_accepted: true, customer: customer() } });
    const bookingsOn = async (shard: number) => rowsOf(shard === 0 ? env.DB : env.DB_SHARD_1, "bookings", businessId);
    // An add and a checkout sent once the directory names the new shard, on the entry remembered
    // before the move: they reach the old shard while the business's rows are still there (they go 1 s later).
    let late: ReturnType<typeof addToCart> | undefined;
    let lateCheckout: ReturnType<typeof checkout> | undefined;
    let sentAt = 0;
    await moveBusiness(env, businessId, to, {
      now: new Date(NOW),
      graceMs: 0,
      staleReadsMs: 1_000,
      log: (line) => {
        if (!line.startsWith("switched")) return;
        sentAt = Date.now();
        late = addToCart(key, { guests: [guest(pkg, start, end)] }, t(1));
        lateCheckout = checkout(1);
      },
    });
    const refused = await late!;
    const refusedCheckout = await lateCheckout!;
    // (the entry was still remembered when it was sent: the test exercised what it names)
    expect(sentAt - read).toBeLessThan(DIRECTORY_READ_TTL_MS);
    expect([refused.status, refused.body.code, refused.headers.get("Retry-After")]).toEqual([503, "business_moving", "30"]);
    expect([refusedCheckout.status, refusedCheckout.body.code]).toEqual([503, "business_moving"]);
    // Nothing of them anywhere: the business's one cart (the first add's) is on the new shard, none
    // on the old, and no booking on either.
    expect([await cartsOn(to), await cartsOn(from), await bookingsOn(to), await bookingsOn(from)]).toEqual([1, 0, 0, 0]);
    // A refusal made this process forget the entry: the next add and checkout read the directory and are made on the new shard.
    const next = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(2));
    expect(next.status).toBe(201);
    expect(await cartsOn(to)).toBe(2);
    expect((await checkout(3)).status).toBe(200);
    expect(await bookingsOn(to)).toBe(1);
  });

  it("keeps every shard tidy: the scheduled upkeep forgets old Idempotency-Keys on shard 1 as on shard 0", async () => {
    const [zero, one] = [await createBusiness("upkeep-zero", {}, 0), await createBusiness("upkeep-one", {}, 1)];
    const old = "2026-11-01T10:00:00.000Z";
    for (const [db, id] of [[env.DB, zero], [env.DB_SHARD_1, one]] as const) {
      await db.prepare("INSERT INTO idempotency (business_id, key, route, request_hash, state, created_at) VALUES (?, 'old-key', 'add', 'h', 'done', ?)").bind(id, old).run();
    }
    const report = await runMaintenance(env, new Date(NOW));
    expect(report.idempotencyKeys).toBeGreaterThanOrEqual(2);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM idempotency WHERE business_id = ?").bind(zero).first("n")).toBe(0);
    expect(await env.DB_SHARD_1.prepare("SELECT COUNT(*) AS n FROM idempotency WHERE business_id = ?").bind(one).first("n")).toBe(0);
  });
  it("gives each shard its own id range: businesses on both shards get disjoint ids, and one moves onto the other's shard and back, keeping them", async () => {
    // Every table whose integer key is the rowid, found in the schema: each is given in the shard's range.
    const keyed = (await businessTables(env.DB)).filter((t) => t.key !== null);
    expect(Object.fromEntries(keyed.map((t) => [t.name, t.key]))).toEqual(RANGED_KEYS);

    const dive = diveCatalog as { settings: Record<string, unknown> };
    const diveFile = CatalogFile.parse({ ...dive, settings: { ...dive.settings, email_from: "bookings@platform.example" } });
    /** A dive centre (the catalog file of `npm start`'s second demo) on `shard`, with a booking made through the public API. */
    const diveCentre = async (slug: string, shard: 0 | 1) => {
      const id = await createBusiness(slug, {}, shard);
      await applyCatalog({ DB: await dbOf(id), EMAIL_SENDING_DOMAINS: env.EMAIL_SENDING_DOMAINS }, actor, id, diveFile, new Date(NOW));
      const cfg = { rate_limit_per_minute: 100_000, widget_allow_loopback: true, guest_fields: { birthday: { request: true, required: false }, minimum_age: 0 } };
      await (await dbOf(id)).prepare("UPDATE businesses SET config = json_patch(config, ?) WHERE id = ?").bind(JSON.stringify(cfg), id).run();
      const keys = { public: await createKey("public", id), private: await createKey("private", id) };
      const pkg = (await (await dbOf(id)).prepare("SELECT id FROM products WHERE business_id = ? AND type = 'package'").bind(id).first<number>("id"))!;
      const cart = await addToCart(keys.public, { guests: [guest(pkg, "2026-12-05", "2026-12-07")] }, NOW);
      expect(cart.status).toBe(201);
      const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key: keys.public, now: NOW, body: { terms_accepted: true, customer: customer() } });
      expect(booked.status).toBe(200);
      return { id, keys, booking: booked.body.id as string };
    };
    /** Per keyed table, the business's ids on its shard. */
    const idsOf = async (id: number) => {
      const db = await dbOf(id);
      const out: Record<string, number[]> = {};
      for (const t of await businessTables(db)) {
        if (!t.key) continue;
        const rows = (await db.prepare(`SELECT "${t.key}" AS k FROM "${t.name}" WHERE ${t.where} ORDER BY 1`).bind(...Array(t.params).fill(id)).all<{ k: number }>()).results;
        if (rows.length) out[t.name] = rows.map((r) => r.k);
      }
      return out;
    };
    const inRange = (ids: Record<string, number[]>, shard: number) => Object.values(ids).flat().every((k) => k > shard * ID_SPAN && k <= (shard + 1) * ID_SPAN);
    /** What the business's owner and its visitors read: its catalog and its booking, by both APIs. */
    const answers = async (b: Awaited<ReturnType<typeof diveCentre>>) => {
      const out: unknown[] = [];
      for (const [path, key] of [["/api/pub/v2/products", b.keys.public], ["/private/catalog", b.keys.private], [`/private/bookings/${b.booking}`, b.keys.private]] as const) {
        const res = await callJson(path, { key, now: NOW });
        const { request_id: _r, ...body } = (res.body ?? {}) as Record<string, unknown>;
        out.push({ path, status: res.status, body });
      }
      return out;
    };

    const zero = await diveCentre("range-zero", 0);
    const one = await diveCentre("range-one", 1);
    const [idsZero, idsOne] = [await idsOf(zero.id), await idsOf(one.id)];
    for (const table of ["currencies", "products", "seasons", "rates", "package_items", "package_charges", "cart_lines", "allocations", "booking_lines", "outbox"]) {
      expect(idsZero[table]?.length, table).toBeGreaterThan(0);
      expect(idsOne[table]?.length, table).toBeGreaterThan(0);
    }
    expect(inRange(idsZero, 0)).toBe(true);
    expect(inRange(idsOne, 1)).toBe(true);
    // Ids past 32 bits are taken at every door: the widget's first screen preselecting a product of shard 1.
    const boot = await callJson(`/widget/v1/range-one/bootstrap?product=${idsOne.products[0]}`, { now: NOW });
    expect(boot.status).toBe(200);
    expect(boot.body.product?.id).toBe(idsOne.products[0]);

    // Onto shard 0, where the other dive centre lives: nothing clashes, every id and answer is kept.
    const before = await answers(one);
    const moved = await moveAtOnce(one.id, 0);
    expect(moved).toMatchObject({ from: 1, to: 0 });
    expect(await idsOf(one.id)).toEqual(idsOne);
    expect(await answers(one)).toEqual(before);
    // Shard 0 keeps giving its own range, not past the ids that came in.
    const later = await diveCentre("range-later", 0);
    expect(inRange(await idsOf(later.id), 0)).toBe(true);
    // Shard 1 never gives the ids that left it again, so the business can come back.
    const after = await diveCentre("range-after", 1);
    const idsAfter = await idsOf(after.id);
    expect(inRange(idsAfter, 1)).toBe(true);
    expect(Math.min(...idsAfter.products)).toBeGreaterThan(Math.max(...idsOne.products));
    await moveAtOnce(one.id, 1);
    expect(await idsOf(one.id)).toEqual(idsOne);
    expect(await answers(one)).toEqual(before);
  }, 120_000);
});
