/**
 * The bench's large data, written as SQL files in chunks and loaded with `wrangler d1 execute
 * --local --file` into the bench's own state directory (never the one `npm start` uses):
 *
 * - business 3 `scale-1k`: 1,000 persons; 100 bookings of 10 guests each (1,000 guests);
 * - business 4 `scale-100k`: 100,000 persons; 10,000 bookings of 10 guests each (100,000 guests);
 * - the demo business: a year of inventory for every product (large capacities, so the load
 *   never sells out), 2,000 bookings spread over the year with their allocations, and two weeks
 *   for the checkout comparison: 10 bookings on week A and 1,000 on week B.
 *
 * Deterministic (a seeded generator), so two runs measure the same data.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWrangler, d1TargetFlags, type Target } from "../../worker/scripts/lib/wrangler";
import { sqlLiteral, type SqlValue } from "../../worker/scripts/lib/wrangler-d1";
import { lastIdSql } from "../../worker/src/db/id-range";

export const SCALE = {
  // After the demo (1, shard 0) and the dive centre (2, shard 1): docs/design.md "Shards". The bench
  // runs on both shards: the small business on DB (shard 0), the large one on DB_SHARD_1.
  small: { id: 3, slug: "scale-1k", persons: 1_000, bookings: 100, shard: 0 },
  large: { id: 4, slug: "scale-100k", persons: 100_000, bookings: 10_000, shard: 1 },
  guestsPerBooking: 10,
  demoSpreadBookings: 2_000,
  weekA: 10,
  weekB: 1_000,
  capacity: 1_000_000,
};

const FIRST = ["Ana", "João", "Maria", "Pedro", "Sofia", "Lukas", "Emma", "Noah", "Mia", "Liam", "Olivia", "Mateo", "Lea", "Finn", "Chloé", "Hugo", "Inês", "Tiago", "Nora", "Elias", "Zoë", "Ömer", "Saoirse", "Björn", "Aiko", "Ravi", "Fatima", "Kwame", "Ingrid", "Paulo"];
const LAST = ["Silva", "Santos", "Ferreira", "Müller", "Schmidt", "García", "Martínez", "Rossi", "Dubois", "Smith", "Jones", "Kowalski", "Nowak", "Jensen", "Larsen", "O'Brien", "Murphy", "Costa", "Oliveira", "Pereira", "Schneider", "Fischer", "Weber", "Moreau", "Laurent", "Bianchi", "Romano", "Kim", "Tanaka", "Haddad"];
const CITIES = ["Lisbon", "Porto", "Berlin", "Munich", "Madrid", "Paris", "London", "Dublin", "Amsterdam", "Zürich", "Vienna", "Oslo"];
const COUNTRIES = ["PT", "DE", "ES", "FR", "GB", "IE", "NL", "CH", "AT", "NO"];

/** mulberry32: small, fast, deterministic. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** A deterministic UUID-shaped id: kind prefix, business and counter (unique, sortable enough). */
function uid(kind: number, business: number, n: number): string {
  const hex = (v: number, w: number) => v.toString(16).padStart(w, "0");
  return `${hex(kind, 8)}-${hex(business, 4)}-4${hex(n >>> 24, 3)}-8${hex((n >>> 12) & 0xfff, 3)}-${hex(n & 0xfff, 12)}`;
}
export function isoDay(base: string, offset: number): string {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
/** The first Saturday at least `days` days after `from` whose week misses the Christmas closure. */
export function saturdayAfter(from: string, days: number): string {
  let d = isoDay(from, days);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 6) d = isoDay(d, 1);
  const closed = (s: string) => Array.from({ length: 8 }, (_, i) => isoDay(s, i).slice(5)).some((md) => md === "12-24" || md === "12-25");
  while (closed(d)) d = isoDay(d, 7);
  return d;
}

class Writer {
  private rows: string[] = [];
  private files: string[] = [];
  private size = 0;
  constructor(private dir: string, private prefix = "scale", private maxBytes = 8_000_000) {}
  insert(table: string, columns: string[], values: SqlValue[][]) {
    // Multi-row INSERTs: far fewer statements to split and run, each under D1's 100 kB statement limit.
    const head = `INSERT INTO ${table} (${columns.join(",")}) VALUES\n`;
    let chunk: string[] = [];
    let bytes = 0;
    const emit = () => {
      if (chunk.length) this.push(`${head}${chunk.join(",\n")};\n`);
      chunk = [];
      bytes = 0;
    };
    for (const row of values) {
      const tuple = `(${row.map(sqlLiteral).join(",")})`;
      if (bytes + tuple.length > 90_000) emit();
      chunk.push(tuple);
      bytes += Buffer.byteLength(tuple) + 2;
    }
    emit();
  }
  push(sql: string) {
    this.rows.push(sql);
    this.size += sql.length;
    if (this.size > this.maxBytes) this.flush();
  }
  flush() {
    if (!this.rows.length) return;
    const file = join(this.dir, `${this.prefix}-${String(this.files.length).padStart(3, "0")}.sql`);
    writeFileSync(file, this.rows.join(""));
    this.files.push(file);
    this.rows = [];
    this.size = 0;
  }
  done(): string[] {
    this.flush();
    return this.files;
  }
}

const PERSON_COLS = ["id", "business_id", "email", "email_norm", "first_name", "last_name", "gender", "birth_date", "language_code", "country_code", "city", "phone_country_calling_code", "phone", "created_at", "updated_at"];

function people(w: Writer, business: number, count: number, random: () => number, created: string): string[] {
  const ids: string[] = [];
  let batch: SqlValue[][] = [];
  for (let n = 0; n < count; n++) {
    const first = FIRST[Math.floor(random() * FIRST.length)];
    const last = LAST[Math.floor(random() * LAST.length)];
    const id = uid(0xa0000000 + 1, business, n);
    ids.push(id);
    const email = `${first}.${last}.${n}@mail${business}.example`.toLowerCase().replace(/[^a-z0-9.@]/g, "x");
    const year = 1950 + Math.floor(random() * 55);
    batch.push([id, business, email, email, first, last, random() < 0.5 ? "male" : "female", `${year}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
      ["en", "de", "pt", "es"][n % 4], COUNTRIES[n % COUNTRIES.length], CITIES[Math.floor(random() * CITIES.length)], "351", String(910000000 + n), created, created]);
    if (batch.length === 5000) {
      w.insert("persons", PERSON_COLS, batch);
      batch = [];
    }
  }
  w.insert("persons", PERSON_COLS, batch);
  return ids;
}

interface BookingPlan { business: number; count: number; start: (n: number) => string; nights: number; persons: string[]; refBase: number; allocate?: boolean }

function bookings(w: Writer, plan: BookingPlan, random: () => number, created: string): void {
  const bookingRows: SqlValue[][] = [];
  const bookerRows: SqlValue[][] = [];
  const guestRows: SqlValue[][] = [];
  const allocRows: SqlValue[][] = [];
  const flush = () => {
    w.insert("bookings", ["id", "business_id", "reference_number", "reference_year", "status", "currency", "total_minor", "total_default_minor", "start_date", "end_date", "location_id", "created_at", "updated_at"], bookingRows.splice(0));
    w.insert("bookers", ["id", "business_id", "booking_id", "person_id", "person_snapshot", "created_at", "updated_at"], bookerRows.splice(0));
    w.insert("guests", ["id", "business_id", "booking_id", "person_id", "person_snapshot", "arrival_date", "departure_date", "check_in_at", "check_out_at", "checked_in_at", "level_id", "created_at", "updated_at"], guestRows.splice(0));
    w.insert("allocations", ["business_id", "product_id", "date", "slot", "qty", "booking_id", "created_at"], allocRows.splice(0));
  };
  for (let n = 0; n < plan.count; n++) {
    const id = uid(0xb0000000 + plan.refBase, plan.business, n);
    const start = plan.start(n);
    const end = isoDay(start, plan.nights);
    const status = random() < 0.05 ? "cancelled" : "confirmed";
    bookingRows.push([id, plan.business, plan.refBase + n + 1, start.slice(0, 4), status, "EUR", 70000, 70000, start, end, 1, created, created]);
    const booker = plan.persons[(n * SCALE.guestsPerBooking) % plan.persons.length];
    bookerRows.push([uid(0xc0000000 + plan.refBase, plan.business, n), plan.business, id, booker, JSON.stringify({ id: booker }), created, created]);
    const guests = plan.allocate ? 1 : SCALE.guestsPerBooking;
    for (let g = 0; g < guests; g++) {
      const person = plan.persons[(n * SCALE.guestsPerBooking + g) % plan.persons.length];
      const checkedIn = start < created.slice(0, 10) ? `${start}T15:00:00Z` : null;
      guestRows.push([uid(0xd0000000 + plan.refBase, plan.business, n * 16 + g), plan.business, id, person, JSON.stringify({ id: person }), start, end,
        `${start}T14:00:00Z`, `${end}T10:00:00Z`, checkedIn, 1 + (g % 3), created, created]);
    }
    if (plan.allocate && status === "confirmed") {
      // What a checkout of the demo package allocates: the package, a dorm bed and the lessons, every night.
      for (let d = 0; d < plan.nights; d++) {
        const date = isoDay(start, d);
        for (const product of [101, 204, 301]) allocRows.push([1, product, date, "", 1, id, created]);
      }
    }
    if (bookingRows.length >= 2000) flush();
  }
  flush();
}

/** A file of the scale data and the D1 binding (the shard) it is loaded into. */
export interface ScaleFile {
  file: string;
  binding: "DB" | "DB_SHARD_1";
}

/** Write the SQL files of the scale data into `dir`; returns them in load order, each with its shard. */
export function writeScaleSql(dir: string, today: string): ScaleFile[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const onDb = new Writer(dir, "scale-db");
  const onShard1 = new Writer(dir, "scale-shard1");
  const writerOf = (shard: number) => (shard === 1 ? onShard1 : onDb);
  const random = rng(20261121);
  const created = `${today}T00:00:00Z`;

  for (const b of [SCALE.small, SCALE.large]) {
    // The directory (on DB) says where each lives; its rows are on that shard, the currency's id in its range.
    onDb.push(`INSERT OR REPLACE INTO shard_directory (business_id, slug, shard) VALUES (${b.id}, '${b.slug}', ${b.shard});\n`);
    const w = writerOf(b.shard);
    w.push(`INSERT OR IGNORE INTO businesses (id, slug, title, config, created_at) VALUES (${b.id}, '${b.slug}', 'Bench ${b.slug}', '{"rate_limit_per_minute":100000}', '${created}');\n`);
    w.push(`INSERT OR IGNORE INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (${lastIdSql("currencies")} + 1, ${b.id}, 'EUR', 'Euro', '€', 1, 1);\n`);
  }

  // A year of inventory for every demo product, from last month on, with capacities the load cannot exhaust.
  const inv: SqlValue[][] = [];
  const products: [number, string[]][] = [[101, [""]], [201, [""]], [202, [""]], [203, [""]], [204, [""]], [205, [""]], [301, [""]],
    [302, ["08:00", "18:00"]], [303, ["17:00"]], [401, [""]], [402, [""]], [501, [""]]];
  for (let d = -31; d < 400; d++) {
    const date = isoDay(today, d);
    const closed = date.slice(5) === "12-24" || date.slice(5) === "12-25";
    for (const [pid, slots] of products) for (const slot of slots) inv.push([1, pid, date, slot, SCALE.capacity, closed && pid <= 205 ? 1 : 0]);
  }
  onDb.push("DELETE FROM inventory WHERE business_id = 1;\n");
  onDb.insert("inventory", ["business_id", "product_id", "date", "slot", "capacity", "blocked"], inv);

  const small = people(writerOf(SCALE.small.shard), SCALE.small.id, SCALE.small.persons, random, created);
  bookings(writerOf(SCALE.small.shard), { business: SCALE.small.id, count: SCALE.small.bookings, start: (n) => isoDay(today, (n * 7) % 360 - 60), nights: 7, persons: small, refBase: 0 }, random, created);
  const large = people(writerOf(SCALE.large.shard), SCALE.large.id, SCALE.large.persons, random, created);
  bookings(writerOf(SCALE.large.shard), { business: SCALE.large.id, count: SCALE.large.bookings, start: (n) => isoDay(today, (n % 420) - 60), nights: 7, persons: large, refBase: 0 }, random, created);

  // Demo business: bookings spread over the year, then the two checkout weeks.
  const demoPersons = people(onDb, 1, 3_000, random, created);
  bookings(onDb, { business: 1, count: SCALE.demoSpreadBookings, start: (n) => saturdayAfter(today, 14 + ((n * 7) % 350)), nights: 7, persons: demoPersons, refBase: 100_000, allocate: true }, random, created);
  const weekA = saturdayAfter(today, 400 - 60);
  const weekB = saturdayAfter(today, 400 - 30);
  bookings(onDb, { business: 1, count: SCALE.weekA, start: () => weekA, nights: 7, persons: demoPersons, refBase: 200_000, allocate: true }, random, created);
  bookings(onDb, { business: 1, count: SCALE.weekB, start: () => weekB, nights: 7, persons: demoPersons, refBase: 300_000, allocate: true }, random, created);
  onDb.push("ANALYZE;\n");
  onShard1.push("ANALYZE;\n");
  return [...onDb.done().map((file) => ({ file, binding: "DB" as const })), ...onShard1.done().map((file) => ({ file, binding: "DB_SHARD_1" as const }))];
}

/** The weeks the checkout comparison books (10 and 1,000 existing bookings on the same dates). */
export function checkoutWeeks(today: string) {
  return { weekA: saturdayAfter(today, 400 - 60), weekB: saturdayAfter(today, 400 - 30) };
}

/** Load the files one by one, each into its shard (each is one wrangler command, run atomically). */
export async function loadSql(target: Target, files: ScaleFile[], onFile?: (i: number, n: number) => void): Promise<void> {
  for (let i = 0; i < files.length; i++) {
    onFile?.(i, files.length);
    const res = await runWrangler(["d1", "execute", files[i].binding, ...d1TargetFlags(target), "--file", files[i].file, "--yes"], target);
    if (res.code !== 0) throw new Error(`loading ${files[i].file} failed:\n${(res.stderr || res.stdout).slice(-2000)}`);
  }
}
