/**
 * `npm run soak`: faults over time, nothing lost.
 *
 * Concurrent simulated buyers (loopback) add to carts, add again, extend, abandon, let carts
 * expire (an 8 s cart lifetime in the soak's own database) and check out, on ten weeks with the
 * demo's real, small capacities so that they compete for the last beds, while the back office
 * cancels a booking now and then (its units go back on sale). Meanwhile a webhook
 * receiver (node http on 127.0.0.1) subscribed to every event goes down (connection refused, or
 * 503) for short spells and comes back. Halfway through, the server itself crashes: its whole
 * process group is killed at once (SIGKILL, requests in flight cut) and started again on the same
 * state; buyers whose requests are cut or refused carry on once it answers again. Then the buyers
 * stop, deliveries drain, and it asserts:
 *
 * 1. no unit oversold: live allocations (bookings + unexpired holds) never exceed capacity in D1,
 *    and the bookings' kept totals (booked_units) equal the sums over their allocation rows;
 * 2. every expired hold is released or not counted: the availability API equals capacity minus
 *    live allocations, and every cart past its expiry was swept (abandoned, holds released);
 * 3. every successful checkout is a booking in D1, and every outbox event was delivered at least
 *    once with a valid Standard Webhooks signature (HMAC-SHA256 of "id.timestamp.body");
 * 4. the crash lost nothing answered: every booking answered is in D1, every cart answered was
 *    swept by the business's expiry alarm; a checkout cut by the crash either booked whole or not
 *    at all (checked-out carts = bookings); the only carts left open past their expiry are ones
 *    whose opening request the crash cut (no more of them than such requests; their holds lapsed
 *    on time and count nowhere, and the alarm the business's next cart sets sweeps them); after
 *    the scheduled upkeep has run, none is open more than a minute past its expiry.
 *
 * Prints the figures; exits non-zero on a violation.
 *   SOAK_SECONDS (default 120)  SOAK_BUYERS (default 8)  SOAK_PORT (default: a free one; the receiver takes another)
 *   SOAK_CRASH=0 leaves the server up
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { d1Query } from "../../worker/scripts/lib/wrangler-d1";
import { freePort, runUpkeep } from "../../worker/scripts/server";
import { startBenchService, type BenchService } from "./harness";
import { saturdayAfter } from "./seed-scale";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const BUYERS = Number(process.env.SOAK_BUYERS ?? 8);
/** The service's and the webhook receiver's ports: SOAK_PORT (and the next), else free ones. */
let HOOK_PORT = 0;
const LIFETIME = 8;
const CRASH = process.env.SOAK_CRASH !== "0";
/** When the crash began and when the restarted server answered (ms epoch; 0: not yet). */
const crash = { began: 0, back: 0 };
const log = (m: string) => process.stderr.write(`soak: ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isoDay = (base: string, days: number) => {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

// ---------------------------------------------------------------------------------------------
// The webhook receiver: verifies every signature, records what arrived, goes down on command.

interface Received { id: string; event: string; valid: boolean; why?: string }
class Receiver {
  received: Received[] = [];
  refused = 0;
  failed503 = 0;
  mode: "up" | "503" | "down" = "up";
  private server?: Server;
  secret = "";
  constructor(readonly port: number) {}

  verify(id: string, timestamp: string, body: string, signature: string): string | undefined {
    const key = Buffer.from(this.secret.replace(/^whsec_/, ""), "base64");
    const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
    // The header may carry several space-separated signatures (key rotation); one must match.
    const ok = signature.split(" ").some((s) => {
      const [version, b64] = s.split(",");
      if (version !== "v1" || !b64) return false;
      const got = Buffer.from(b64, "base64");
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
    if (!ok) return "signature does not verify";
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return "timestamp more than 5 minutes off";
    return undefined;
  }

  async start() {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        if (this.mode === "503") {
          this.failed503++;
          res.writeHead(503).end("down for maintenance");
          return;
        }
        const id = String(req.headers["webhook-id"] ?? "");
        const why = this.verify(id, String(req.headers["webhook-timestamp"] ?? ""), body, String(req.headers["webhook-signature"] ?? ""));
        let event = "";
        try {
          event = JSON.parse(body).event;
        } catch {
          /* recorded as invalid below */
        }
        this.received.push({ id, event, valid: !why && !!event, why: why ?? (event ? undefined : "body is not {event, data}") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
    this.mode = "up";
  }
  async stop() {
    if (!this.server) return;
    const s = this.server;
    this.server = undefined;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  /** Down for `ms`: the port closed (connection refused) or answering 503. */
  async outage(ms: number, kind: "down" | "503") {
    this.mode = kind;
    if (kind === "down") await this.stop();
    await sleep(ms);
    if (kind === "down") await this.start();
    this.mode = "up";
  }
}

// ---------------------------------------------------------------------------------------------
// Buyers

interface Figures {
  adds: number; addsRefused: number; soldOut: number; secondAdds: number; extends: number; deletes: number; expiredLeft: number;
  checkouts: number; checkoutFailed: Record<string, number>; unexpected: string[]; bookingIds: Set<string>; restarts: number; cancels: number;
  /** Requests cut or refused by the crash, and those among them whose outcome the buyer never learnt. */
  cut: number; addsCut: number; checkoutsCut: number;
  /** Every cart opened (201) and every booking made (200) that a buyer was told of. */
  answeredCarts: Set<string>; answeredBookings: Set<string>;
}
const figures: Figures = {
  cancels: 0, restarts: 0, adds: 0, addsRefused: 0, soldOut: 0, secondAdds: 0, extends: 0, deletes: 0, expiredLeft: 0, checkouts: 0, checkoutFailed: {}, unexpected: [], bookingIds: new Set(),
  cut: 0, addsCut: 0, checkoutsCut: 0, answeredCarts: new Set(), answeredBookings: new Set(),
};

/** An answer read whole: the status and the body's text. */
interface Answer {
  status: number;
  text: string;
}

/**
 * fetch and read the body, where a request cut or refused because of the crash (sent before the
 * restarted server answered) is null for the caller: a refused connection, a request cut in
 * flight, and an answer whose body the SIGKILL cut while it was read (undici's "terminated") are
 * the same thing to a buyer. Any other failure to get a whole answer is a violation.
 */
async function send(url: string, init: RequestInit, what: string): Promise<Answer | null> {
  const sent = Date.now();
  try {
    const res = await fetch(url, init);
    return { status: res.status, text: await res.text() };
  } catch (err) {
    if (crash.began && (!crash.back || sent < crash.back)) {
      figures.cut++;
      return null;
    }
    figures.unexpected.push(`${what} → no answer: ${(err as Error).message}`);
    return null;
  }
}

async function api(svc: BenchService, key: string, method: string, path: string, body?: unknown) {
  const res = await send(`${svc.url}/api/pub/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }, `${method} ${path}`);
  if (!res) return { status: 0, body: undefined as any };
  const { text } = res;
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  // wrangler dev reloads the Worker when a source file changes under it (a developer saving a
  // file mid-run): counted apart, it is the dev server's doing, not the service's.
  if (res.status === 503 && /worker restarted mid-request/i.test(text)) figures.restarts++;
  else if (res.status >= 500) figures.unexpected.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, body: json };
}

/**
 * A task of the run (a buyer, the back office, the crash) whose own failure is one more violation
 * rather than the end of the run: the soak ends by its verdicts, which are checked whatever happened.
 */
async function task(name: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    figures.unexpected.push(`${name} stopped: ${(err as Error).stack ?? err}`);
  }
}

function party(weeks: string[], n: number) {
  const start = weeks[n % weeks.length];
  const size = 1 + (n % 2);
  return Array.from({ length: size }, (_, i) => ({
    first_name: "Soak",
    last_name: `Buyer ${n}-${i}`,
    gender: (n + i) % 3 === 0 ? "m" : "f",
    birth_date: "1992-03-04",
    package: { id: 101, start_date: start, end_date: isoDay(start, 7), accommodation_id: (n + i) % 3 === 0 ? 201 : [202, 203, 204][n % 3] },
  }));
}

async function buyer(svc: BenchService, key: string, weeks: string[], until: number, seed: number) {
  let n = seed * 100_000;
  while (Date.now() < until) {
    n++;
    const add = await api(svc, key, "POST", "/bookings/add", { currency: "EUR", guests: party(weeks, n) });
    figures.adds++;
    if (add.status === 0) {
      // Cut by the crash: whether the cart was written is unknown to this buyer; try again shortly.
      figures.addsCut++;
      await sleep(200);
      continue;
    }
    if (add.status !== 200 && add.status !== 201) {
      figures.addsRefused++;
      if (add.body?.code === "sold_out") figures.soldOut++;
      else if (add.status < 500) figures.checkoutFailed[`add ${add.status} ${add.body?.code}`] = (figures.checkoutFailed[`add ${add.status} ${add.body?.code}`] ?? 0) + 1;
      await sleep(50);
      continue;
    }
    const cart = add.body.cart_id as string;
    figures.answeredCarts.add(cart);
    const roll = (n * 7919) % 100;
    if (roll < 15) {
      // Add a second party to the same cart.
      const again = await api(svc, key, "POST", "/bookings/add", { currency: "EUR", cart_id: cart, guests: party(weeks, n + 1) });
      if (again.status < 300) figures.secondAdds++;
    }
    if (roll < 45) {
      if (roll % 3 === 0) {
        const ext = await api(svc, key, "PUT", `/carts/${cart}/extend`);
        if (ext.status < 300) figures.extends++;
      }
      const co = await api(svc, key, "POST", `/carts/${cart}/checkout`, {
        terms_accepted: true,
        customer: { first_name: "Soak", last_name: `Buyer ${n}`, email: `soak.${n}@example.com`, phone: "912345678", phone_countrycode: 351 },
      });
      if (co.status === 0) figures.checkoutsCut++;
      else if (co.status < 300) {
        figures.checkouts++;
        if (co.body?.id) {
          figures.bookingIds.add(co.body.id);
          figures.answeredBookings.add(co.body.id);
        }
      } else figures.checkoutFailed[`checkout ${co.status} ${co.body?.code}`] = (figures.checkoutFailed[`checkout ${co.status} ${co.body?.code}`] ?? 0) + 1;
    } else if (roll < 65) {
      const del = await api(svc, key, "DELETE", `/carts/${cart}`);
      if (del.status < 300) figures.deletes++;
    } else {
      figures.expiredLeft++; // walk away: the cart expires after LIFETIME seconds
    }
    await sleep(20 + (n % 5) * 20);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const fixed = process.env.SOAK_PORT ? Number(process.env.SOAK_PORT) : undefined;
  HOOK_PORT = fixed ? fixed + 1 : await freePort();
  const receiver = new Receiver(HOOK_PORT);
  await receiver.start();
  const svc = await startBenchService({
    name: "soak",
    port: fixed,
    scale: false,
    log,
    env: { ALLOW_LOOPBACK_WEBHOOKS: "true" },
    // Short carts; the demo's own small capacities (the bench's large ones are undone here).
    tune: [
      `UPDATE businesses SET config = json_set(config, '$.cart_lifetime_seconds', ${LIFETIME}) WHERE id = 1`,
      "UPDATE products SET default_capacity = CASE id WHEN 101 THEN 40 WHEN 201 THEN 8 WHEN 202 THEN 8 WHEN 203 THEN 8 WHEN 204 THEN 6 WHEN 205 THEN 3 WHEN 301 THEN 40 ELSE default_capacity END WHERE business_id = 1",
    ],
  });
  const violations: string[] = [];
  const target = { persistTo: svc.server.persistTo };
  try {
    const privateKey = svc.privateKeys[0];
    const sub = await fetch(`${svc.url}/private/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${privateKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        url: `http://127.0.0.1:${HOOK_PORT}/hooks`,
        events: ["GuestCreated", "GuestUpdated", "GuestDeleted", "BookerCreated", "BookerUpdated", "PersonCreated", "PersonUpdated", "PersonDeleted", "BookingCreated", "BookingCancelled"],
      }),
    });
    const subBody = (await sub.json()) as any;
    if (sub.status !== 201 || !subBody.secret) throw new Error(`could not subscribe a webhook: ${sub.status} ${JSON.stringify(subBody).slice(0, 300)}`);
    receiver.secret = subBody.secret;

    const today = new Date().toISOString().slice(0, 10);
    const weeks = [...new Set(Array.from({ length: 10 }, (_, i) => saturdayAfter(today, 14 + 7 * i)))];
    const until = Date.now() + SECONDS * 1000;
    log(`${BUYERS} buyers for ${SECONDS} s on the weeks of ${weeks.join(", ")}; receiver on 127.0.0.1:${HOOK_PORT}`);

    // Outages: 3 s spells every ~12 s, alternating refused connections and 503s. Shorter than the
    // first retry (5 s), so every failed delivery's next attempt lands while the receiver is up.
    const outages = (async () => {
      let i = 0;
      while (Date.now() < until - 4000) {
        await sleep(9000);
        if (Date.now() >= until - 4000) break;
        await receiver.outage(3000, i++ % 2 ? "503" : "down");
      }
      return i;
    })();
    const progress = setInterval(() => log(`${Math.round((until - Date.now()) / 1000)} s left: ${figures.adds} adds, ${figures.checkouts} checkouts, ${figures.soldOut} sold out, ${receiver.received.length} webhooks`), 15000);
    // The back office cancels a booking now and then: its units go back on sale to the buyers.
    const cancels = task("the back office", async () => {
      let n = 0;
      while (Date.now() < until) {
        await sleep(1500);
        const ids = [...figures.bookingIds];
        if (!ids.length) continue;
        const id = ids[(n * 7) % ids.length];
        const res = await send(`${svc.url}/private/bookings/${id}/cancel`, { method: "POST", headers: { authorization: `Bearer ${privateKey}` } }, `POST /private/bookings/${id}/cancel`);
        if (!res) continue;
        const { text } = res;
        if (res.status < 300) {
          figures.bookingIds.delete(id);
          figures.cancels++;
        } else if (res.status >= 500) figures.unexpected.push(`POST /private/bookings/${id}/cancel → ${res.status} ${text.slice(0, 200)}`);
        n++;
      }
    });
    // Halfway: the server crashes and is started again on the same state.
    const crashed = task("the crash and restart", async () => {
      if (!CRASH) return;
      await sleep((SECONDS * 1000) / 2);
      log("crash: killing the server's process group (SIGKILL) and starting it again on the same state ...");
      crash.began = Date.now();
      await svc.crashAndRestart();
      crash.back = Date.now();
      log(`crash: the server answers again after ${crash.back - crash.began} ms`);
    });
    await Promise.all(Array.from({ length: BUYERS }, (_, i) => task(`buyer ${i + 1}`, () => buyer(svc, svc.publicKeys[i % svc.publicKeys.length], weeks, until, i + 1))));
    await cancels;
    await crashed;
    clearInterval(progress);
    const outageCount = await outages;

    // Let every cart expire and be swept, and every delivery drain (first retry is 5 s).
    log("buyers stopped; waiting for carts to expire and deliveries to drain ...");
    const subscribedFrom = Number((await d1Query<{ s: number }>(target, [{ sql: "SELECT start_seq AS s FROM webhooks WHERE id = ?", params: [subBody.id] }]))[0][0]?.s ?? 0);
    let pending: { id: string; event: string }[] = [];
    const drainUntil = Date.now() + 60_000;
    await sleep((LIFETIME + 3) * 1000);
    // One more change after the storm: its delivery kick also picks up any event whose own kick
    // was lost (a request cut by a reload between commit and kick); the delivery object's
    // periodic sweep would otherwise find those within 5 minutes.
    const late = await fetch(`${svc.url}/private/persons`, {
      method: "POST",
      headers: { authorization: `Bearer ${privateKey}`, "content-type": "application/json" },
      body: JSON.stringify({ email: `soak.last.${Date.now()}@example.com`, first_name: "Last", last_name: "Change" }),
    });
    if (late.status >= 300) violations.push(`the closing POST /private/persons answered ${late.status}`);
    for (;;) {
      const [events] = await d1Query<{ id: string; event: string }>(target, [{ sql: "SELECT id, event FROM outbox WHERE business_id = 1 AND seq > ? ORDER BY seq", params: [subscribedFrom] }]);
      const got = new Set(receiver.received.filter((r) => r.valid).map((r) => r.id));
      pending = events.filter((e) => !got.has(e.id));
      if (!pending.length || Date.now() > drainUntil) {
        const [[{ n }]] = await d1Query<{ n: number }>(target, [{ sql: "SELECT COUNT(*) AS n FROM outbox WHERE business_id = 1 AND seq > ?", params: [subscribedFrom] }]);
        log(`outbox: ${n} events since the subscription, ${n - pending.length} delivered`);
        break;
      }
      await sleep(1000);
    }

    // 1. Nothing oversold.
    const nowIso = new Date().toISOString();
    const [oversold] = await d1Query<{ product_id: number; date: string; slot: string; used: number; cap: number }>(target, [{
      sql: `SELECT a.product_id, a.date, a.slot, SUM(a.qty) AS used,
              COALESCE((SELECT CASE WHEN i.blocked = 1 THEN 0 ELSE i.capacity END FROM inventory i
                         WHERE i.product_id = a.product_id AND i.date = a.date AND i.slot = a.slot), p.default_capacity, 1000000000) AS cap
              FROM allocations a JOIN products p ON p.id = a.product_id
             WHERE a.business_id = 1 AND a.released_at IS NULL AND (a.booking_id IS NOT NULL OR a.expires_at > ?)
             GROUP BY a.product_id, a.date, a.slot HAVING used > cap`,
      params: [nowIso],
    }]);
    for (const o of oversold) violations.push(`oversold: product ${o.product_id} on ${o.date}${o.slot ? ` ${o.slot}` : ""}: ${o.used} > capacity ${o.cap}`);
    // The bookings' kept totals (booked_units, what availability and the capacity check read)
    // equal the sums over the bookings' own allocation rows, date by date.
    const [drift] = await d1Query<{ product_id: number; date: string; slot: string; kept: number; summed: number }>(target, [{
      sql: `SELECT k.product_id, k.date, k.slot, k.qty AS kept, k.summed FROM (
              SELECT b.product_id, b.date, b.slot, b.qty,
                     (SELECT COALESCE(SUM(a.qty), 0) FROM allocations a WHERE a.product_id = b.product_id AND a.date = b.date AND a.slot = b.slot
                        AND a.booking_id IS NOT NULL AND a.released_at IS NULL) AS summed
                FROM booked_units b WHERE b.business_id = 1) k WHERE k.qty <> k.summed
            UNION ALL
            SELECT a.product_id, a.date, a.slot, 0, SUM(a.qty) FROM allocations a
             WHERE a.business_id = 1 AND a.booking_id IS NOT NULL AND a.released_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM booked_units b WHERE b.product_id = a.product_id AND b.date = a.date AND b.slot = a.slot)
             GROUP BY a.product_id, a.date, a.slot`,
      params: [],
    }]);
    for (const d of drift) violations.push(`booked total drifted: product ${d.product_id} on ${d.date}: kept ${d.kept}, bookings hold ${d.summed}`);
    const [[booked]] = await d1Query<{ units: number; full: number }>(target, [{
      sql: `SELECT COALESCE(SUM(qty), 0) AS units, (SELECT COUNT(*) FROM (SELECT a.product_id, a.date, SUM(a.qty) AS u, p.default_capacity AS c
              FROM allocations a JOIN products p ON p.id = a.product_id WHERE a.booking_id IS NOT NULL AND a.released_at IS NULL
              GROUP BY a.product_id, a.date HAVING u = c)) AS full
            FROM allocations WHERE business_id = 1 AND booking_id IS NOT NULL AND released_at IS NULL`,
      params: [],
    }]);

    // 2. Expired holds: swept, and never counted by the API.
    const [[sweep]] = await d1Query<{ unreleased: number; expired_carts: number }>(target, [{
      sql: `SELECT (SELECT COUNT(*) FROM allocations a JOIN carts c ON c.id = a.cart_id
                     WHERE c.status = 'abandoned' AND a.booking_id IS NULL AND a.released_at IS NULL) AS unreleased,
                   (SELECT COUNT(*) FROM carts WHERE business_id = 1 AND status = 'abandoned') AS expired_carts`,
      params: [],
    }]);
    // A cart left open past its expiry is allowed only when the crash cut the request that opened
    // it (written, then the process killed before it armed the business's timer): its buyer was
    // never told of it, and its holds lapsed on time. A cart any buyer was told of must have been
    // swept: the carts opened after the crash armed the timer again.
    // The scheduled upkeep (what the cron trigger runs) sweeps such carts once a minute past expiry.
    const upkeepAt = Date.now();
    if (!(await runUpkeep(svc.url))) violations.push("the scheduled upkeep failed");
    const [unswept] = await d1Query<{ id: string; expires_at: string }>(target, [{
      sql: "SELECT id, expires_at FROM carts WHERE business_id = 1 AND status = 'open' AND expires_at < ?",
      params: [new Date(Date.now() - 5000).toISOString()],
    }]);
    const unsweptAnswered = unswept.filter((c) => figures.answeredCarts.has(c.id));
    const cutBeforeAlarm = unswept.length - unsweptAnswered.length;
    const leftByUpkeep = unswept.filter((c) => Date.parse(c.expires_at) < upkeepAt - 65_000).length;
    if (leftByUpkeep) violations.push(`${leftByUpkeep} cart(s) open more than a minute past their expiry after the scheduled upkeep ran`);
    if (unsweptAnswered.length) violations.push(`${unsweptAnswered.length} cart(s) answered to a buyer still open past their expiry (the expiry alarm did not sweep them)`);
    if (cutBeforeAlarm > figures.addsCut) violations.push(`${cutBeforeAlarm} unanswered cart(s) open past their expiry, more than the ${figures.addsCut} add(s) the crash cut`);
    if (sweep.unreleased) violations.push(`${sweep.unreleased} hold(s) of abandoned carts not released`);
    let apiChecked = 0;
    for (const product of [101, 201, 202, 203, 204]) {
      const res = await fetch(`${svc.url}/api/pub/v2/products/${product}/availabilities?start_date=${weeks[0]}&end_date=${isoDay(weeks[weeks.length - 1], 7)}`, { headers: { authorization: `Bearer ${svc.publicKeys[0]}` } });
      if (res.status !== 200) {
        violations.push(`availability of ${product} answered ${res.status}`);
        continue;
      }
      const api = (await res.json()) as Record<string, { available: number; capacity: number }>;
      const at = new Date().toISOString();
      const [live] = await d1Query<{ date: string; used: number }>(target, [{
        sql: `SELECT date, SUM(qty) AS used FROM allocations WHERE product_id = ? AND released_at IS NULL AND (booking_id IS NOT NULL OR expires_at > ?) GROUP BY date`,
        params: [product, at],
      }]);
      const used = new Map(live.map((r) => [r.date, r.used]));
      for (const [date, entry] of Object.entries(api)) {
        apiChecked++;
        const expected = Math.max(0, entry.capacity - (used.get(date) ?? 0));
        if (entry.available !== expected) violations.push(`availability of ${product} on ${date}: the API says ${entry.available}, capacity − live allocations is ${expected}`);
      }
    }

    // 3. Nothing lost: checkouts are bookings; events were delivered with valid signatures.
    const [[{ n: bookings }]] = await d1Query<{ n: number }>(target, [{ sql: "SELECT COUNT(*) AS n FROM bookings WHERE business_id = 1 AND cart_id IS NOT NULL", params: [] }]);
    // Every checkout answered is a booking; a checkout the crash cut may have booked (whole) or not.
    if (bookings < figures.checkouts || bookings > figures.checkouts + figures.checkoutsCut) {
      violations.push(`${figures.checkouts} successful checkouts (and ${figures.checkoutsCut} cut by the crash) but ${bookings} bookings from carts in D1`);
    }
    const [stored] = await d1Query<{ id: string }>(target, [{ sql: "SELECT id FROM bookings WHERE business_id = 1", params: [] }]);
    const storedIds = new Set(stored.map((b) => b.id));
    const lost = [...figures.answeredBookings].filter((id) => !storedIds.has(id));
    if (lost.length) violations.push(`${lost.length} booking(s) answered to a buyer missing from D1: ${lost.slice(0, 5).join(", ")}`);
    const [[halves]] = await d1Query<{ carts_out: number; booked_carts: number }>(target, [{
      sql: `SELECT (SELECT COUNT(*) FROM carts WHERE business_id = 1 AND status = 'checked_out') AS carts_out,
                   (SELECT COUNT(DISTINCT cart_id) FROM bookings WHERE business_id = 1 AND cart_id IS NOT NULL) AS booked_carts`,
      params: [],
    }]);
    if (halves.carts_out !== halves.booked_carts) violations.push(`${halves.carts_out} checked-out carts but ${halves.booked_carts} carts with a booking: a checkout half done`);
    for (const p of pending.slice(0, 20)) violations.push(`event ${p.event} ${p.id} never delivered with a valid signature`);
    if (pending.length > 20) violations.push(`… and ${pending.length - 20} more undelivered events`);
    const invalid = receiver.received.filter((r) => !r.valid);
    for (const r of invalid.slice(0, 10)) violations.push(`delivery ${r.id} (${r.event}) invalid: ${r.why}`);
    for (const u of figures.unexpected.slice(0, 10)) violations.push(`unexpected: ${u}`);
    if (figures.unexpected.length > 10) violations.push(`… and ${figures.unexpected.length - 10} more unexpected answers`);

    const [[attempts]] = await d1Query<{ failed: number; delivered: number }>(target, [{
      sql: "SELECT SUM(status = 'failed') AS failed, SUM(status = 'delivered') AS delivered FROM webhook_deliveries WHERE webhook_id = ?",
      params: [subBody.id],
    }]);
    const ids = receiver.received.map((r) => r.id);
    const figuresOut = {
      seconds: SECONDS,
      buyers: BUYERS,
      adds: figures.adds,
      adds_refused: figures.addsRefused,
      sold_out: figures.soldOut,
      second_adds: figures.secondAdds,
      extends: figures.extends,
      deleted: figures.deletes,
      left_to_expire: figures.expiredLeft,
      checkouts: figures.checkouts,
      cancelled_by_back_office: figures.cancels,
      dev_server_reloads_seen: figures.restarts,
      crash: CRASH ? { at_second: Math.round((crash.began - (until - SECONDS * 1000)) / 1000), down_ms: crash.back - crash.began } : "off",
      requests_cut_or_refused_by_crash: figures.cut,
      adds_cut: figures.addsCut,
      checkouts_cut: figures.checkoutsCut,
      cut_checkouts_that_booked: bookings - figures.checkouts,
      carts_cut_before_their_alarm_left_open: cutBeforeAlarm,
      stray_carts_swept_by_upkeep: Number(/"msg":"maintenance".*?"strayCarts":(\d+)/.exec(svc.server.output())?.[1] ?? NaN),
      refusals: figures.checkoutFailed,
      bookings_in_d1: bookings,
      booked_units_live: booked.units,
      product_dates_sold_to_capacity: booked.full,
      abandoned_carts: sweep.expired_carts,
      availability_entries_checked: apiChecked,
      receiver_outages: outageCount,
      deliveries_refused_503: receiver.failed503,
      delivery_attempts_failed_then_retried: attempts.failed ?? 0,
      delivery_attempts_delivered: attempts.delivered ?? 0,
      webhooks_received: receiver.received.length,
      webhooks_distinct: new Set(ids).size,
      webhooks_duplicates: ids.length - new Set(ids).size,
      events_undelivered: pending.length,
      violations: violations.length,
    };
    process.stdout.write(`${JSON.stringify(figuresOut, null, 2)}\n`);
  } finally {
    await svc.stop();
    await receiver.stop();
  }
  if (violations.length) {
    process.stdout.write(`\nVIOLATIONS (${violations.length}):\n${violations.map((v) => `  - ${v}`).join("\n")}\n`);
    process.exitCode = 1;
  } else process.stdout.write("\nsoak: no violation.\n");
}

main().catch((err) => {
  process.stderr.write(`soak failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
