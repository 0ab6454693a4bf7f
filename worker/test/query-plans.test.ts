import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyRecordStatement } from "../src/db/businesses";
import { ledgerStatement } from "../src/db/catalog";
import { snapshotStatements } from "../src/db/catalog-snapshot";
import { findShortages } from "../src/db/allocations";
import { expireCartsStatements, loadCart, nextExpiryStatement } from "../src/db/carts";
import { checkoutPersonsStatement } from "../src/db/persons";
import { listPersonsStatements } from "../src/db/persons";
import { ledgerOf } from "../src/db/payments";
import { runMaintenance } from "../src/db/maintenance";
import { bookingMailStatements, dueEmails, listEmails, nextEmailDue } from "../src/db/emails";
import { bookingPaymentPoliciesStatement } from "../src/db/products";
import { isoDateTime } from "../src/lib/time";
import { createBusiness } from "./helpers";
import { catalogStateStatements, inventoryRowsStatement, usageStatement } from "../src/db/catalog-write";
import { listAuditEntries } from "../src/db/audit-log";
import { bookingSlotAllocations, manifestStatement } from "../src/db/manifest";

// The hot queries must reach their rows through an index, never by scanning a table that grows
// with the business (allocations, persons, guests, bookings, ...). The SQL is not copied here: the
// owners' own functions run against a recording D1 and every statement they prepare is
// explained with the same bindings, so a change to a query is checked as it is.

interface Recorded {
  sql: string;
  params: unknown[];
}

const recordedOf = new WeakMap<object, Recorded>();

/** Tables whose size grows with a business's activity; a SCAN of any of them is a finding. */
const BIG = ["allocations", "persons", "guests", "bookers", "bookings", "booking_lines", "carts", "cart_lines", "cart_guests", "api_keys", "outbox", "webhook_deliveries", "inventory", "idempotency", "emails", "payments"];

async function planRows(sql: string, params: unknown[]) {
  return (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ id: number; parent: number; detail: string }>()).results;
}

async function plan(sql: string, params: unknown[]): Promise<string[]> {
  return (await planRows(sql, params)).map((r) => r.detail);
}

const NOT_ALIASES = new Set(["WHERE", "ON", "JOIN", "LEFT", "INNER", "CROSS", "NATURAL", "USING", "INDEXED", "NOT", "ORDER", "GROUP", "LIMIT", "SET", "UNION", "VALUES"]);

/** The tables a statement names by an alias (`FROM persons p`, `JOIN guests AS g`): the plan shows the alias. */
function aliasesOf(sql: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [, table, alias] of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    if (alias && !NOT_ALIASES.has(alias.toUpperCase())) map.set(alias, table);
  }
  return map;
}

/** Plan lines that read a big table in full (a SCAN without a usable constraint), by table name or alias. */
function scans(lines: string[], sql = ""): string[] {
  const aliases = aliasesOf(sql);
  return lines.filter((d) => {
    const m = /^SCAN (\w+)(?: AS \w+)?(.*)$/.exec(d);
    if (!m) return false;
    const [, name, rest] = m;
    const table = aliases.get(name) ?? name;
    if (table.endsWith("_fts")) return !/VIRTUAL TABLE INDEX \d+:M/.test(rest); // MATCH uses the FTS index
    return BIG.includes(table);
  });
}

async function explainAll(seen: Recorded[]): Promise<{ sql: string; full: string; plan: string[]; scans: string[]; sortsOuter: boolean }[]> {
  const out = [];
  for (const r of seen) {
    if (!/^\s*(SELECT|WITH)/i.test(r.sql)) continue;
    const rows = await planRows(r.sql, r.params);
    const p = rows.map((x) => x.detail);
    // A sort of the statement's own rows (not of a subquery's) sits at the top of the plan.
    const sortsOuter = rows.some((x) => x.parent === 0 && x.detail === "USE TEMP B-TREE FOR ORDER BY");
    out.push({ sql: r.sql.replace(/\s+/g, " ").slice(0, 160), full: r.sql, plan: p, scans: scans(p, r.sql), sortsOuter });
  }
  return out;
}

function expectIndexed(explained: Awaited<ReturnType<typeof explainAll>>) {
  expect(explained.length).toBeGreaterThan(0);
  for (const e of explained) {
    const why = `${e.sql}\nplan:\n  ${e.plan.join("\n  ")}`;
    expect(e.scans, why).toEqual([]);
    // A page (LIMIT) of a big table sorted in a temporary B-tree reads and sorts every row first,
    // and computes each row's correlated subqueries before the sort: cost grows with the table.
    if (/\bLIMIT\b/i.test(e.full) && /CORRELATED SCALAR SUBQUERY/.test(e.plan.join("\n"))) {
      expect(e.sortsOuter, `sorts its rows (and their subqueries) in full before the page: ${why}`).toBe(false);
    }
  }
}

// A recording D1 whose batch() records too: the statements carry their SQL and bindings.
function recorder() {
  const seen: Recorded[] = [];
  /** D1 round trips: each batch() or single statement's first/all/run/raw. */
  const trips = { count: 0 };
  const wrap = (sql: string, stmt: D1PreparedStatement, params: unknown[]): D1PreparedStatement => {
    const entry = { sql, params };
    const p = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(sql, target.bind(...args), args);
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
          return (...args: unknown[]) => {
            trips.count++;
            seen.push(entry);
            return (target as any)[prop](...args);
          };
        }
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    recordedOf.set(p, entry);
    unwrap.set(p, stmt);
    return p;
  };
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  // A request reads through a session of the binding (middleware/session.ts): it records too.
  const record = <T extends object>(database: T): T =>
    new Proxy(database, {
      get(target, prop) {
        const d1 = target as unknown as D1Database;
        if (prop === "prepare") return (sql: string) => wrap(sql, d1.prepare(sql), []);
        if (prop === "batch") {
          return (stmts: D1PreparedStatement[]) => {
            trips.count++;
            for (const s of stmts) seen.push(recordedOf.get(s as object)!);
            return d1.batch(stmts.map((s) => unwrap.get(s as object) ?? s));
          };
        }
        if (prop === "withSession") return (constraintOrBookmark?: string) => record(d1.withSession(constraintOrBookmark));
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  const db = record(env.DB);
  return { db, seen, trips };
}

const now = new Date("2026-11-21T10:00:00Z");

describe("query plans of the hot queries", () => {
  it("the checker sees a full scan when there is one (so the tests below can fail)", async () => {
    expect(scans(await plan("SELECT * FROM persons WHERE city = ?", ["Lisbon"]))).toEqual(["SCAN persons"]);
    const aliased = "SELECT p.id FROM persons AS p WHERE p.city = ?";
    expect(scans(await plan(aliased, ["Lisbon"]), aliased)).toEqual(["SCAN p"]);
    expect(scans(await plan("SELECT * FROM persons WHERE business_id = ? AND email_norm = ? AND deleted_at IS NULL", [1, "a@b.c"]))).toEqual([]);
  });

  it("the checker tells a page sorted in full with its subqueries from a subquery's own sort", async () => {
    const derived = "(SELECT COUNT(*) FROM guests g WHERE g.person_id = p.id) AS n";
    const [full, inner] = await explainAll([
      { sql: `SELECT p.*, ${derived} FROM persons p WHERE p.business_id = ? ORDER BY p.city LIMIT 10`, params: [1] },
      { sql: `SELECT p.*, ${derived} FROM persons p WHERE p.id IN (SELECT person_id FROM guests WHERE business_id = ? ORDER BY check_in_at LIMIT 10)`, params: [1] },
    ]);
    expect(full.sortsOuter).toBe(true);
    expect(inner.sortsOuter).toBe(false);
    expect(inner.plan).toContain("USE TEMP B-TREE FOR ORDER BY");
  });

  it("the API key lookup (every authenticated request) reads by primary key", async () => {
    const { db, seen } = recorder();
    await keyRecordStatement(db, "00000000-0000-4000-8000-000000000000").first();
    expectIndexed(await explainAll(seen));
  });

  it("availability aggregates allocations and inventory through their indexes", async () => {
    const { db, seen } = recorder();
    await ledgerStatement(db, 1, [101, 201, 202, 203, 204, 205, 301, 302], "2026-12-05", "2027-12-05", now).all();
    const explained = await explainAll(seen);
    expectIndexed(explained);
    const lines = explained.flatMap((e) => e.plan).join("\n");
    // Bookings from their kept total (one row per date), holds through their own index.
    expect(lines).toMatch(/SEARCH booked_units USING PRIMARY KEY/);
    expect(lines).toMatch(/allocations USING (COVERING )?INDEX allocations_holds/);
  });

  it("a manifest finds its day's bookings through the product-date's live allocations, and a move its slot's units through the booking", async () => {
    const { db, seen } = recorder();
    await manifestStatement(db, 1, 101, "2026-12-05").all();
    await bookingSlotAllocations(db, 1, "00000000-0000-4000-8000-000000000001", 101, "2026-12-05", "09:00");
    const explained = await explainAll(seen);
    expectIndexed(explained);
    const lines = explained[0].plan.join("\n");
    expect(lines).toMatch(/SEARCH a USING (COVERING )?INDEX allocations_booked/);
    expect(lines).toMatch(/SEARCH l USING INDEX booking_lines_booking/);
  });

  it("a catalog snapshot reads each catalog table by business, never every business's rows", async () => {
    const { db, seen } = recorder();
    await db.batch(snapshotStatements(db, 1));
    const explained = await explainAll(seen);
    expect(explained).toHaveLength(14);
    const CATALOG = ["businesses", "currencies", "diets", "levels", "categories", "locations", "accommodation_types", "products", "rates", "seasons", "season_segments", "package_items", "package_groups", "package_accommodations"];
    for (const e of explained) {
      const full = e.plan.filter((d) => CATALOG.some((t) => new RegExp(`^SCAN ${t}\\b`).test(d)));
      expect(full, `${e.sql}\nplan:\n  ${e.plan.join("\n  ")}`).toEqual([]);
    }
  });

  it("the capacity check of a hold (the trigger's sums) reads the booked total and the holds' index", async () => {
    const { db, seen } = recorder();
    await findShortages(db, 1, [{ product_id: 101, date: "2026-12-05", slot: "", qty: 1 }], now);
    expectIndexed(await explainAll(seen));
    // The trigger itself (allocations_capacity) runs the same two reads; explain them verbatim.
    const { results } = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'allocations_capacity'").all<{ sql: string }>();
    expect(results[0].sql).toContain("FROM booked_units b WHERE b.product_id = NEW.product_id AND b.date = NEW.date AND b.slot = NEW.slot");
    const booked = await plan("SELECT b.qty FROM booked_units b WHERE b.product_id = ? AND b.date = ? AND b.slot = ?", [101, "2026-12-05", ""]);
    expect(booked.join("\n")).toMatch(/SEARCH b USING PRIMARY KEY/);
    const holds = await plan(
      `SELECT COALESCE(SUM(a.qty), 0) FROM allocations a WHERE a.product_id = ? AND a.date = ? AND a.slot = ?
         AND a.released_at IS NULL AND a.booking_id IS NULL AND a.expires_at > ?`,
      [101, "2026-12-05", "", now.toISOString()],
    );
    expect(scans(holds, "FROM allocations a"), holds.join("\n")).toEqual([]);
    expect(holds.join("\n")).toMatch(/INDEX allocations_holds/);
  });

  it("the administration reads its business's catalog, inventory, holds and bookings, and audit log by index", async () => {
    const { db, seen } = recorder();
    await db.batch([
      ...catalogStateStatements(db, 1),
      inventoryRowsStatement(db, 1, "all"),
      inventoryRowsStatement(db, 1, [101, 302], "2026-12-01", "2026-12-31"),
      usageStatement(db, 1, "all", "2026-11-21", "9999-12-31", now),
      usageStatement(db, 1, [101], "2026-11-21", "9999-12-31", now),
    ]);
    await listAuditEntries(db, 1, { entity: ["product"], entityId: "101", page: 2, limit: 10 });
    const explained = await explainAll(seen);
    expectIndexed(explained);
    // The catalog tables too: each read by the business's own rows, never every business's.
    const CATALOG = ["currencies", "diets", "levels", "categories", "locations", "accommodation_types", "products", "rates", "seasons", "season_segments", "package_items", "package_groups", "package_accommodations", "audit_log", "booked_units"];
    for (const e of explained) {
      const full = e.plan.filter((d) => CATALOG.some((t) => new RegExp(`^SCAN ${t}\\b`).test(d)));
      expect(full, `${e.sql}\nplan:\n  ${e.plan.join("\n  ")}`).toEqual([]);
    }
  });

  it("a checkout reads its persons by the e-mail index, its cart's guests by cart id", async () => {
    const { db, seen } = recorder();
    await db.batch([checkoutPersonsStatement(db, 1, "00000000-0000-4000-8000-000000000000", "someone@example.com")]);
    const [one] = await explainAll(seen);
    expect(one.scans, one.plan.join("\n")).toEqual([]);
    expect(one.plan.join("\n")).toMatch(/persons USING INDEX persons_email/);
  });

  it("a booking's ledger reads its entries through the booking's index, in order", async () => {
    const { db, seen } = recorder();
    await ledgerOf(db, 1, "00000000-0000-4000-8000-000000000000");
    const [one] = await explainAll(seen);
    expect(one.scans, one.plan.join("\n")).toEqual([]);
    expect(one.plan.join("\n")).toMatch(/payments USING INDEX payments_booking/);
    expect(one.plan.join("\n")).not.toMatch(/TEMP B-TREE/);
  });

  it("loading a cart reads its rows by cart id", async () => {
    const { db, seen } = recorder();
    await loadCart(db, 1, "00000000-0000-4000-8000-000000000000");
    expectIndexed(await explainAll(seen));
  });

  it("the expiry alarm's sweep and its next expiry go through the open carts' expiry index", async () => {
    const { db, seen } = recorder();
    await db.batch([...expireCartsStatements(db, 1, now), nextExpiryStatement(db, 1)]);
    expect(seen).toHaveLength(3);
    for (const r of seen) {
      const lines = (await planRows(r.sql, r.params)).map((x) => x.detail);
      expect(scans(lines, r.sql), `${r.sql}\n${lines.join("\n")}`).toEqual([]);
      expect(lines.join("\n")).toMatch(/carts USING (COVERING )?INDEX carts_open_expiry/);
    }
  });

  it("the e-mail delivery's due rows and next alarm, and the e-mails list, read the business's rows through its indexes", async () => {
    const { db, seen } = recorder();
    await dueEmails(db, 1, isoDateTime(now), 20);
    await nextEmailDue(db, 1);
    await listEmails(db, 1, { status: ["failed"], page: 1, limit: 10 });
    await listEmails(db, 1, { bookingId: "00000000-0000-4000-8000-000000000000", page: 1, limit: 10 });
    const plans = await explainAll(seen);
    expectIndexed(plans);
    const all = plans.flatMap((p) => p.plan).join("\n");
    for (const index of ["emails_due", "emails_list", "emails_booking"]) expect(all).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
  });

  it("a booking's e-mail reads its booking's rows by the booking, never every row of its business", async () => {
    // Found in the bench: the guests' read walked every guest of the business (guests_business_created,
    // business_id alone) and the policies' subquery every booking line (booking_lines_product), so a
    // confirmation cost more with each booking the business had ever taken.
    const { db, seen } = recorder();
    const booking = "00000000-0000-4000-8000-000000000000";
    await db.batch([...bookingMailStatements(db, 1, booking), bookingPaymentPoliciesStatement(db, 1, booking)]);
    const plans = await explainAll(seen);
    expectIndexed(plans);
    // A search on the business alone reads all its rows: each big table is reached by the booking (or its own key).
    const byBusinessOnly = plans.flatMap((p) => {
      const aliases = aliasesOf(p.full);
      return p.plan
        .filter((d) => {
          const m = /^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(business_id=\?\)$/.exec(d);
          return m !== null && BIG.includes(aliases.get(m[1]) ?? m[1]);
        })
        .map((d) => `${d}\n  in ${p.sql}`);
    });
    expect(byBusinessOnly).toEqual([]);
    expect(plans.flatMap((p) => p.plan).join("\n")).not.toMatch(/^SCAN k\b/m);
  });

  it("the scheduled upkeep finds old and stray rows through indexes, never by reading a whole table", async () => {
    const { db, seen } = recorder();
    await runMaintenance({ ...env, DB: db } as Env, now);
    const plans = [];
    for (const r of seen) {
      const lines = (await planRows(r.sql, r.params)).map((x) => x.detail);
      expect(scans(lines, r.sql), `${r.sql}\n${lines.join("\n")}`).toEqual([]);
      plans.push(lines.join("\n"));
    }
    const all = plans.join("\n");
    for (const index of ["carts_open_expiry", "idempotency_age", "webhook_deliveries_settled_age", "outbox_age", "emails_due_all", "emails_body_age", "audit_log_detail_age"]) {
      expect(all).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
    }
  });

  it("the persons full-text search goes through the trigram index, not a scan of persons", async () => {
    const { db, seen } = recorder();
    await db.batch(listPersonsStatements(db, 1, { query: "silva lisbon", order: [{ field: "last_name", desc: false }], page: 1, limit: 10 }));
    const explained = await explainAll(seen);
    expectIndexed(explained);
    expect(explained.flatMap((e) => e.plan).join("\n")).toMatch(/persons_fts VIRTUAL TABLE INDEX \d+:M/);
  });

  it("a persons search reads its own business's entries, however many persons other businesses hold", async () => {
    const tag = `quokka${crypto.randomUUID().slice(0, 6)}`;
    const small = await createBusiness(`fts-small-${tag}`);
    const big = await createBusiness(`fts-big-${tag}`);
    const insert = (businessId: number, n: number) =>
      env.DB.prepare(
        `INSERT INTO persons (id, business_id, first_name, last_name, created_at, updated_at)
         SELECT lower(hex(randomblob(16))), ?1, 'Ana', ?2 || ' ' || value, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM json_each(?3)`,
      ).bind(businessId, tag, JSON.stringify(Array.from({ length: n }, (_, i) => i))).run();
    await insert(small, 3);
    await insert(big, 600);
    const read = async (query: string) => {
      const [page, count] = await env.DB.batch(listPersonsStatements(env.DB, small, { query, order: [], page: 1, limit: 10 }));
      return { found: page.results.length, total: (count.results[0] as { n: number }).n, rowsRead: page.meta.rows_read + count.meta.rows_read };
    };
    const long = await read(tag);
    expect(long).toMatchObject({ found: 3, total: 3 });
    expect(long.rowsRead, "rows read by a 3-match search beside 600 matches of another business").toBeLessThan(100);
    // A short word (no trigram) is matched on the business's own index rows only.
    const short = await read(`${tag} na`);
    expect(short).toMatchObject({ found: 3, total: 3 });
    expect(short.rowsRead).toBeLessThan(100);
  });

  it("the persons list sorted by name pages through an index of the business", async () => {
    const { db, seen } = recorder();
    await db.batch(listPersonsStatements(db, 1, { order: [{ field: "last_name", desc: false }, { field: "first_name", desc: false }], page: 1, limit: 10 }));
    expectIndexed(await explainAll(seen));
  });
});

// Whole requests, run in-process on a recording D1: every SELECT an endpoint issues, whichever
// file it lives in (route or db), is explained. The key is a real one; only D1 is observed.
describe("query plans of hot endpoints, end to end", () => {
  async function endpointPlans(path: string, scope: "public" | "private") {
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const { app } = await import("../src/index");
    const { createKey } = await import("./helpers");
    const key = await createKey(scope);
    const { db, seen, trips } = recorder();
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers: { Authorization: `Bearer ${key}` } }), { ...env, DB: db }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status, await res.clone().text()).toBe(200);
    lastTrips = trips.count;
    return explainAll(seen);
  }
  let lastTrips = 0;

  it("a guests page, its count and its guests' persons come in one D1 round trip", async () => {
    const path = "/private/guests?arrives_at=2026-12-01..2026-12-31&limit=10";
    await endpointPlans(path, "private"); // the first may also read the catalog snapshot
    const explained = await endpointPlans(path, "private");
    expect(lastTrips).toBe(1);
    expect(explained.some((e) => /^\s*SELECT p\.\*/.test(e.full))).toBe(true);
  });

  it.each([
    ["/api/pub/v2/products/101/availabilities?start_date=2026-12-05&end_date=2027-12-05", "public"],
    ["/api/pub/v2/products/availabilities?start_date=2026-12-05&end_date=2027-01-05", "public"],
    ["/private/persons?query=silva&limit=10", "private"],
    ["/private/guests?arrives_at=2026-12-01..2026-12-31&limit=10", "private"],
    ["/private/guests?booking_id=00000000-0000-4000-8000-000000000000", "private"],
    // The default order pages through persons_page_created (0050), the name sorts through
    // persons_page_last / persons_page_first.
    ["/private/persons?limit=10", "private"],
    ["/private/persons?sort_by=last_name&limit=10", "private"],
    ["/private/persons?sort_by=first_name,desc&limit=10", "private"],
  ] as const)("GET %s reads through indexes only", async (path, scope) => {
    expectIndexed(await endpointPlans(path, scope));
  });

  // "SEARCH g USING INDEX guests_business (business_id=?)" passes the check above, yet reads every
  // guest of the business. The stay-date filters must narrow the search by the date itself
  // (arrives_on / departs_on, kept by the triggers of migration 0060), in the page and the count.
  const arrives = /^SEARCH g USING (COVERING )?INDEX guests_business_arrives \(business_id=\? AND arrives_on>\? AND arrives_on<\?\)$/;
  const departs = /^SEARCH g USING (COVERING )?INDEX guests_business_departs \(business_id=\? AND departs_on>\? AND departs_on<\?\)$/;
  async function guestListPlans(qs: string) {
    const all = await endpointPlans(`/private/guests?${qs}&limit=10`, "private");
    expectIndexed(all);
    // The page, then the count (then the page's persons, which take the page as a subquery).
    const explained = all.filter((e) => /^\s*SELECT (g\.\*|COUNT\(\*\))[\s\S]*\bFROM guests g\b/i.test(e.full));
    expect(explained.map((e) => /^\s*SELECT COUNT\(\*\)/i.test(e.full))).toEqual([false, true]);
    // How each finds its guests (the page's ten rows, once chosen, are then read by rowid).
    const finding = (d: string) => /^(SEARCH|SCAN) g\b/.test(d) && d !== "SEARCH g USING INTEGER PRIMARY KEY (rowid=?)";
    return explained.map((e) => ({ ...e, why: `${e.sql}\nplan:\n  ${e.plan.join("\n  ")}`, guests: e.plan.filter(finding) }));
  }

  it.each([
    "arrives_at=2026-12-01..2026-12-14",
    "arrives_at=2026-12-05",
    "arrives_at=2026-12-01..2026-12-14&sort_by=booking_related_data.arrival_date",
    "arrives_at=2026-12-01..2026-12-14&sort_by=booking_related_data.check_in_at,desc",
  ])("GET /private/guests?%s searches guests_business_arrives by the date (page and count)", async (qs) => {
    for (const e of await guestListPlans(qs)) expect(e.guests, e.why).toEqual([expect.stringMatching(arrives)]);
  });

  it("the guests are counted and their page chosen without a booking lookup each, unless a filter needs the booking", async () => {
    const bookingLookups = (plan: string[], from: number) => plan.slice(from).filter((d) => /^SEARCH b\b/.test(d)).length;
    const [page, count] = await guestListPlans("arrives_at=2026-12-01..2026-12-14");
    expect(bookingLookups(count.plan, 0), count.why).toBe(0);
    // The page's bookings are looked up once the page is chosen: after the subquery's sort.
    const chosen = page.plan.indexOf("USE TEMP B-TREE FOR ORDER BY");
    expect(chosen, page.why).toBeGreaterThan(0);
    expect(bookingLookups(page.plan.slice(0, chosen), 0), page.why).toBe(0);
    const [, byBooking] = await guestListPlans("arrives_at=2026-12-01..2026-12-14&booking_created_at=2026-01-01..");
    expect(bookingLookups(byBooking.plan, 0), byBooking.why).toBe(1);
  });

  it("GET /private/guests?departs_at= searches guests_business_departs by the date (page and count)", async () => {
    for (const e of await guestListPlans("departs_at=2026-12-01..2026-12-14")) expect(e.guests, e.why).toEqual([expect.stringMatching(departs)]);
  });

  // transfer_dates (arriving OR departing then) is a union of both index searches. The count reads
  // every match, so it must take them; the page may instead walk guests_business_created in its
  // order when the planner expects that to be cheaper (without sqlite_stat1 it assumes ~10 guests
  // per business), which the bench's analyzed data does not.
  it("GET /private/guests?transfer_dates= counts through both stay-date indexes", async () => {
    const [, count] = await guestListPlans("transfer_dates=2026-12-01..2026-12-14");
    expect(count.guests, count.why).toEqual([expect.stringMatching(arrives), expect.stringMatching(departs)]);
  });
});
