import { Hono, type Context } from "hono";
import { ledgerRead, toLedgers } from "../db/catalog";
import { readTenant, readTenantLedger } from "../db/tenant-read";
import { emptyLedger, minAvailable, slotState, stayDates } from "../domain/availability";
import { paysOnline, productsIn, structuresIn } from "../domain/catalog";
import { notFound, onError, problem } from "../lib/problem";
import type { AppEnv, RequestSession, Tenant } from "../db/request-env";
import { ApiError } from "../lib/errors";
import type { Access } from "../db/request-env";
import { addDays, isoDate } from "../lib/time";
import { executionCtxOf, waitUntil } from "../lib/wait-until";
import { widgetDoor } from "../middleware/widget";
import { KeptAnswers } from "../lib/kept-answers";
import { settleAccess } from "../db/tenant-read";
import { loadPublicApi } from "./public-lazy";
import { productBasics } from "./public/catalog-view";
import { humanCheckOn, requireHuman, TURNSTILE_HEADER } from "../manage/human-check";
import { localizedFields } from "../domain/custom-fields";
import { processMemory } from "../lib/process-memory";
import { MAX_ID } from "../contract/common";

/**
 * The widget's edge proxy: /widget/v1/{business}/... runs the very handlers of the public API
 * v2 (publicApi(), mounted a second time in an inner app, built on its first use) on the tenant that widgetDoor()
 * resolved from the slug, plus two widget-only reads, /bootstrap and /calendar (whose package
 * calendars also say what is left of each room type for a stay from each check-in day).
 *
 * The tenant reaches the inner app through a WeakMap keyed by the forwarded Request object, not
 * through a header, so nothing a browser sends can choose the tenant.
 *
 * Kept answers: catalog reads (settings, products, seasons, prices, deep links) are kept 60 s;
 * reads that carry availability (package items, accommodations, availabilities, /calendar, the
 * whole bootstrap) 3 s, enough to absorb a burst of visitors and never long enough to mislead
 * one: a hold is refused by the database anyway when the units are gone. Carts, bookings and
 * every non-GET are never kept. They are kept in two places: this process's memory (plain text,
 * lib/kept-answers.ts), which works wherever the Worker runs, workers.dev included, and the
 * edge's Cache API (caches.default), which processes of one location share where it works (a
 * custom domain). `X-Cache: HIT|MISS` tells which.
 *
 * Answers are kept under the business's catalog_version as the widget door knew it
 * (db/business-memo.ts: read from D1 at most half a second before): every change of settings,
 * catalog or inventory moves the version (migration 0070's triggers), so within half a second
 * requests ask under a new key and see the change; the old entries just age out. A kept answer
 * is served with no D1 read at all. Browsers are told to revalidate (no-cache), so none keeps an
 * answer the edge no longer would.
 */

interface Forwarded {
  tenant: Tenant;
  /** The outer request's access: its business row is read once for all the inner calls. */
  access: Access;
  now: Date;
  requestId: string;
  /** The outer request's D1 session: its shard, and the bookmark its answer carries. */
  d1Session?: RequestSession;
}
const forwarded = new WeakMap<Request, Forwarded>();

/**
 * The inner app: the public API's routes on the forwarded tenant. Built on the first request that
 * needs it, once the public API's modules are loaded (routes/public-lazy.ts), and kept as a plain
 * value of the process (never the promise of it).
 */
let inner: Hono<AppEnv> | undefined;
async function innerApp(): Promise<Hono<AppEnv>> {
  if (inner) return inner;
  const routes = await loadPublicApi();
  if (inner) return inner;
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    const ctx = forwarded.get(c.req.raw);
    if (!ctx) throw new ApiError(404, "not_found", "Not found.");
    c.set("tenant", ctx.tenant);
    c.set("access", ctx.access);
    c.set("now", ctx.now);
    c.set("requestId", ctx.requestId);
    if (ctx.d1Session) c.set("d1Session", ctx.d1Session);
    await next();
  });
  app.route("/", routes);
  app.notFound(notFound);
  app.onError(onError);
  return (inner = app);
}

const CATALOG_TTL = 60;
const AVAILABILITY_TTL = 3;

/** Seconds a GET of this public-API path may be kept at the edge; 0 = never. */
export function edgeTtl(path: string): number {
  if (/^\/(settings|seasons|products)$/.test(path)) return CATALOG_TTL;
  if (/^\/products\/\d+(\/(prices|deeplink))?$/.test(path) || path === "/products/prices") return CATALOG_TTL;
  if (/^\/packages\/\d+(\/accommodations)?$/.test(path)) return AVAILABILITY_TTL;
  if (/^\/products\/(\d+\/)?availabilities$/.test(path)) return AVAILABILITY_TTL;
  return 0;
}

/** What the key of a kept answer is made of: every input the answer depends on, the catalog version included. */
async function cacheKey(c: Context<AppEnv>, path: string, search: URLSearchParams): Promise<string> {
  const sorted = new URLSearchParams([...search.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // The test clock changes "today" (default start dates): keep such answers apart.
  const testNow = c.env.ALLOW_TEST_CLOCK === "1" ? c.req.header("X-Test-Now") : undefined;
  if (testNow) sorted.set("__now", testNow);
  // The business's catalog version: a change to settings, catalog or inventory is a new key. The
  // door's (at most half a second old: db/business-memo.ts) costs no read; without it, settled now.
  const version = c.get("widgetVersion") ?? (await settleAccess(c));
  // The public origin is part of the key: answers such as a deep link carry it.
  return `https://widget-edge-cache.invalid/${encodeURIComponent(new URL(c.req.url).host)}/${c.get("tenant").slug}/v${version}${path}?${sorted}`;
}

function edgeCache(): Cache | null {
  return typeof caches !== "undefined" && "default" in caches ? (caches as unknown as { default: Cache }).default : null;
}

/**
 * The answers this process keeps (plain text, lib/kept-answers.ts), in front of the Cache API: on
 * workers.dev, where the Cache API keeps nothing, and on a custom domain alike, a repeated read is
 * answered from here with no D1 read and no cache lookup. At most 512 answers and 8 M characters
 * (at most 16 MB, a fraction of the 128 MB an isolate may use).
 */
const kept = processMemory(new KeptAnswers(512, 8_000_000));

/** Run `path` (relative to the public API root) on the inner app, through the edge cache for GETs. */
async function runInner(c: Context<AppEnv>, method: string, path: string, search: URLSearchParams, init: RequestInit = {}): Promise<Response> {
  return throughEdgeCache(c, method === "GET" ? edgeTtl(path) : 0, path, search, async () => {
    const qs = search.toString();
    // On the public origin, so that what the handlers derive from their URL (a deep link) is public.
    const req = new Request(`${new URL(c.req.url).origin}${path}${qs ? `?${qs}` : ""}`, { ...init, method });
    forwarded.set(req, { tenant: c.get("tenant"), access: c.get("access"), now: c.get("now"), requestId: c.get("requestId"), d1Session: c.get("d1Session") });
    return (await innerApp()).fetch(req, c.env, executionCtxOf(c));
  });
}

/**
 * The answer kept for `ttl` seconds under the business's catalog version, `path` and the sorted
 * query: from this process's memory first, then the edge's Cache API, else `produce`d and kept
 * in both when it is a 200. ttl 0: produced every time, never kept.
 */
async function throughEdgeCache(c: Context<AppEnv>, ttl: number, path: string, search: URLSearchParams, produce: () => Promise<Response>): Promise<Response> {
  if (ttl <= 0) return withNoStore(await produce());
  const key = await cacheKey(c, path, search);
  const now = c.get("now").getTime();
  // A guest with a cart reads from its bookmark (middleware/session.ts): what it is shown of
  // availability must count its own holds, which move no catalog version, so a kept answer that
  // carries availability is not used for it (it is read, and kept for the others). The catalog
  // alone changes only with the version: kept answers of it serve everyone.
  const ownWritesCount = ttl <= AVAILABILITY_TTL && c.get("d1Session")?.kind === "bookmark";
  const mine = ownWritesCount ? undefined : kept.get(key, now);
  if (mine) return withCacheHeaders(new Response(mine.body, { status: mine.status, headers: mine.headers }), "HIT");
  const cache = edgeCache();
  const hit = cache && !ownWritesCount ? await cache.match(key) : undefined;
  if (hit) {
    const body = await hit.text();
    keep(key, hit.status, hit.headers, body, now, ttl);
    return withCacheHeaders(new Response(body, hit), "HIT");
  }
  const res = await produce();
  if (res.status !== 200) return res;
  const body = await res.text();
  const stored = new Response(body, res);
  stored.headers.set("Cache-Control", `public, s-maxage=${ttl}, max-age=${ttl}`);
  stored.headers.delete("X-Request-Id");
  stored.headers.delete("Set-Cookie");
  keep(key, stored.status, stored.headers, body, now, ttl);
  if (cache) waitUntil(c, cache.put(key, stored.clone()));
  return withCacheHeaders(stored, "MISS");
}

function keep(key: string, status: number, headers: Headers, body: string, now: number, ttl: number) {
  kept.set(key, { status, headers: [...headers.entries()].filter(([name]) => name !== "x-request-id" && name !== "set-cookie"), body, from: now, until: now + ttl * 1000 });
}

/** Marks an answer made here (its headers are its own, never a cached one's): no second Response is made for it. */
function withCacheHeaders(res: Response, state: "HIT" | "MISS"): Response {
  res.headers.set("X-Cache", state);
  // Browsers revalidate: an owner's change must reach a guest at once, and only the edge's key
  // knows the catalog version (the URL does not change with it).
  res.headers.set("Cache-Control", "no-cache");
  return res;
}

function withNoStore(res: Response): Response {
  const out = new Response(res.body, res);
  out.headers.set("Cache-Control", "no-store");
  return out;
}

/** Call the inner app and hand back its JSON, or rethrow its problem as our own ApiError. */
async function innerJson<T>(c: Context<AppEnv>, path: string, query: Record<string, string | number | undefined>): Promise<T> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") search.set(k, String(v));
  const res = await runInner(c, "GET", path, search);
  const body = (await res.json()) as any;
  if (res.status !== 200) {
    throw new ApiError(res.status, body?.code ?? "internal_error", body?.detail ?? `GET ${path} failed.`, body?.errors ? { errors: body.errors } : {});
  }
  return body as T;
}

interface ProductLike {
  id: number;
  type: string;
  duration?: { default?: number; unit?: string; max?: number | null };
  is_on_timeslots?: boolean;
}
interface SettingsLike {
  languages: string[];
  currencies: { iso_code: string }[];
}
type AvailabilityMap = Record<string, { available_for_checkin?: boolean; [k: string]: unknown }>;

const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && isoDate(new Date(`${s}T00:00:00Z`)) === s;
const MAX_CALENDAR_DAYS = 92;
const MAX_PRICED_DAYS = 62;

/**
 * Availability and the per-person price for the product's default duration, per date of a
 * window: what the calendar shows. Prices only for the days one can check in on.
 */
async function calendar(c: Context<AppEnv>, product: ProductLike, from: string, to: string, currency: string, duration: number | undefined, language: string | undefined) {
  const dates = await innerJson<AvailabilityMap>(c, `/products/${product.id}/availabilities`, { start_date: from, end_date: to });
  const days = Object.keys(dates).sort();
  const checkin = days.filter((d) => isCheckin(dates[d])).slice(0, MAX_PRICED_DAYS);
  // a product sold by the hour is priced for its own hours, one day at a time
  const dur = product.duration?.unit === "hour" ? undefined : (duration ?? product.duration?.default);
  const [prices, rooms] = await Promise.all([
    Promise.all(
      checkin.map((d) =>
        innerJson<{ total_price: number }>(c, `/products/${product.id}/prices`, { start_date: d, pax: 1, currency, duration: dur })
          .then((p) => p.total_price)
          .catch(() => null),
      ),
    ),
    product.type === "package" && dur ? roomsLeft(c, product.id, checkin, dur, language) : null,
  ]);
  const priceByDate = new Map(checkin.map((d, i) => [d, prices[i]]));
  const out: Record<string, unknown> = {};
  for (const d of days) out[d] = { ...dates[d], price: priceByDate.get(d) ?? null, ...(rooms?.left.has(d) ? { rooms: rooms.left.get(d) } : {}) };
  return { from, to, currency, duration: dur ?? null, dates: out, rooms: rooms?.types ?? null };
}

/**
 * A package's room types, and for each check-in day what is left of each for the whole stay
 * (0 when a night is blocked, null when unlimited): with it the widget's calendar offers only
 * the days on which some room can take the guest's party, and its room step shows a type that
 * is sold out as sold out instead of leaving it out. The party is the guest's to change, so the
 * fit is decided in the browser, with the same rules (domain/accommodation.ts). null for a
 * package without accommodation.
 */
async function roomsLeft(c: Context<AppEnv>, packageId: number, checkins: string[], nights: number, language: string | undefined) {
  if (!checkins.length) return null;
  let ids: number[] = [];
  const { snap, ledgerText } = await readTenantLedger(c, (snap) => {
    ids = structuresIn(snap, [packageId]).get(packageId)?.accommodationIds ?? [];
    const last = stayDates(checkins[checkins.length - 1], nights).at(-1)!;
    return ids.length ? ledgerRead(c.env.DB, snap.businessId, ids, checkins[0], last, c.get("now")) : undefined;
  });
  if (!ids.length) return null;
  const rooms = [...productsIn(snap, ids).values()];
  const ledgers = toLedgers(ids, ledgerText);
  const lang = language === snap.business.config.default_language ? undefined : language;
  const types = rooms.map((p) => ({ id: p.id, title: productBasics(p, lang).title, is_private: p.is_private, gender: p.gender, beds_per_room: p.beds_per_room }));
  const left = new Map<string, Record<number, number | null>>();
  for (const day of checkins) {
    const stay = stayDates(day, nights);
    const perRoom: Record<number, number | null> = {};
    for (const p of rooms) {
      const ledger = ledgers.get(p.id) ?? emptyLedger();
      perRoom[p.id] = stay.some((d) => slotState(p, ledger, d).blocked) ? 0 : minAvailable(p, ledger, stay);
    }
    left.set(day, perRoom);
  }
  return { types, left };
}

function isCheckin(entry: AvailabilityMap[string] | undefined): boolean {
  if (!entry) return false;
  if (typeof entry.available_for_checkin === "boolean") return entry.available_for_checkin;
  // products on timeslots: a day with a free slot
  const slots = entry.timeslots as { available: number }[] | null | undefined;
  return Array.isArray(slots) && slots.some((s) => s.available > 0) && entry.blocked !== true;
}

function monthStart(date: string) {
  return `${date.slice(0, 7)}-01`;
}
function nextMonthEnd(date: string) {
  const d = new Date(`${monthStart(date)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 2);
  d.setUTCDate(0);
  return isoDate(d);
}

function pick(settings: SettingsLike, language: string | undefined, currency: string | undefined) {
  const lang = language && settings.languages.includes(language) ? language : settings.languages[0] ?? "en";
  const cur = currency && settings.currencies.some((x) => x.iso_code === currency) ? currency : settings.currencies[0]?.iso_code ?? "EUR";
  return { lang, cur };
}

function readQuery(c: Context<AppEnv>) {
  const q = c.req.query();
  const errors: { path: string; message: string }[] = [];
  if (q.product !== undefined && (!/^[1-9]\d{0,15}$/.test(q.product) || Number(q.product) > MAX_ID)) errors.push({ path: "product", message: "must be a product id" });
  for (const k of ["start_date", "from", "to"] as const) {
    if (q[k] !== undefined && !isIsoDate(q[k])) errors.push({ path: k, message: "must be a date, YYYY-MM-DD" });
  }
  if (q.duration !== undefined && !/^[1-9]\d{0,3}$/.test(q.duration)) errors.push({ path: "duration", message: "must be a positive integer" });
  if (q.language !== undefined && !/^[a-z]{2}$/.test(q.language)) errors.push({ path: "language", message: "must be a two-letter language code" });
  if (q.currency !== undefined && !/^[A-Z]{3}$/.test(q.currency)) errors.push({ path: "currency", message: "must be a three-letter currency code" });
  if (errors.length) {
    throw new ApiError(422, "validation_failed", `The query is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
  }
  return q;
}

/** The widget's routes; mounted by index.ts on a plain Hono app, so they stay out of /openapi.json. */
export function widgetRoutes() {
  const widget = new Hono<AppEnv>();
  widget.use("/widget/v1/:business/*", widgetDoor());
  widget.use("/widget/v1/:business", widgetDoor());

  /**
   * What the first screen needs, in one round trip: settings, the product (or the front-office
   * list), the package's items for the preselected check-in, and the calendar window (this month
   * and the next) with availability and prices. Unknown language/currency fall back to the
   * business's defaults; the answer says which were used.
   */
  widget.get("/widget/v1/:business/bootstrap", async (c) => {
    const q = readQuery(c);
    // The whole answer is kept at the edge as briefly as the availability in it: a hit costs
    // one cache read instead of the many inner reads below.
    return throughEdgeCache(c, AVAILABILITY_TTL, "/bootstrap", new URL(c.req.url).searchParams, () => bootstrap(c, q));
  });

  async function bootstrap(c: Context<AppEnv>, q: ReturnType<typeof readQuery>): Promise<Response> {
    const settings = await innerJson<SettingsLike & Record<string, unknown>>(c, "/settings", {});
    const { lang, cur } = pick(settings, q.language, q.currency);
    const today = isoDate(c.get("now"));
    let products: ProductLike[];
    let product: ProductLike | null = null;
    if (q.product) {
      product = await innerJson<ProductLike>(c, `/products/${q.product}`, { language: lang });
      products = [product];
    } else {
      products = await innerJson<ProductLike[]>(c, "/products", { language: lang });
    }
    let cal = null;
    let startDate: string | null = null;
    let pkg = null;
    if (product) {
      const anchor = q.start_date && q.start_date > today ? q.start_date : today;
      const from = monthStart(anchor) > today ? monthStart(anchor) : today;
      cal = await calendar(c, product, from, nextMonthEnd(anchor), cur, q.duration ? Number(q.duration) : undefined, lang);
      const days = Object.keys(cal.dates).sort();
      const checkin = days.filter((d) => isCheckin(cal!.dates[d] as AvailabilityMap[string]));
      startDate = q.start_date && checkin.includes(q.start_date) ? q.start_date : checkin[0] ?? null;
      // a package's items, or a product's own (it is sold as its own one-item package: its
      // times with their places left); none for a product the business does not list
      if (startDate) {
        const days = product.duration?.unit === "hour" ? 1 : (q.duration ?? product.duration?.default ?? 7);
        pkg = await innerJson(c, `/packages/${product.id}`, { start_date: startDate, duration: days, currency: cur, language: lang }).catch((err) => {
          if (product!.type === "package") throw err;
          return null;
        });
      }
    }
    // The business's saved theme (settings widget_theme), from the snapshot the reads above settled: no extra round trip.
    const { snap } = await readTenant(c);
    const config = snap.business.config;
    const theme = config.widget_theme;
    // The terms the guest will accept, in the language the widget is shown in where the business
    // wrote them (the confirmation e-mail quotes the same text: domain/email/plan.ts termsIn).
    settings.terms = config.terms_translations[lang] || config.terms;
    // the longest a flexible product may be booked for, which the public view does not show:
    // the widget offers no length the cart would refuse
    for (const p of products) if (p.duration) p.duration.max = snap.products.get(p.id)?.duration.max ?? null;
    // the sentences that name the business ("{company} will contact you") name it by its title
    // when it has no company name
    settings.company_name ||= snap.business.title;
    // The human check at checkout, when the business turned it on: the widget renders Turnstile with this public key.
    const humanCheck = humanCheckOn(config) ? { provider: "turnstile", site_key: config.turnstile_site_key } : null;
    // The business's own questions likewise, in that language where it translated them.
    (settings.settings as Record<string, unknown>).custom_fields = localizedFields(config.custom_fields, lang);
    // Whether the guest pays online at checkout (payment_policy; docs/payments.md "Paying at checkout"), for the checkout's wording.
    // Online payment needs Stripe connected as well: otherwise checkout books as without it, and the guest is told nothing of paying.
    const payment = paysOnline(snap.business) ? { pay_to_confirm: config.payment_policy.pay_to_confirm } : null;
    c.header("Cache-Control", "no-cache");
    return c.json({ business: c.get("tenant").slug, today, language: lang, currency: cur, settings, theme, human_check: humanCheck, payment, products, product, start_date: startDate, calendar: cal, package: pkg }, 200);
  }

  /** Availability and prices of one product over a window (the calendar's other months). */
  widget.get("/widget/v1/:business/calendar", async (c) => {
    const q = readQuery(c);
    if (!q.product) throw new ApiError(422, "validation_failed", "product: required", { errors: [{ path: "product", message: "required" }] });
    const settings = await innerJson<SettingsLike>(c, "/settings", {});
    const { lang, cur } = pick(settings, q.language, q.currency);
    const product = await innerJson<ProductLike>(c, `/products/${q.product}`, {});
    const today = isoDate(c.get("now"));
    const from = q.from && q.from > today ? q.from : today;
    let to = q.to ?? nextMonthEnd(from);
    if (to < from) throw new ApiError(422, "validation_failed", "to: must not be before from", { errors: [{ path: "to", message: "must not be before from" }] });
    if (to > addDays(from, MAX_CALENDAR_DAYS)) to = addDays(from, MAX_CALENDAR_DAYS);
    c.header("Cache-Control", "no-cache");
    return c.json(await calendar(c, product, from, to, cur, q.duration ? Number(q.duration) : undefined, lang), 200);
  });

  /**
   * A checkout through the widget, when the business turned its human check on (settings
   * turnstile_site_key and turnstile_secret): the visitor's Turnstile token (header
   * X-Turnstile-Token) must be confirmed by Cloudflare first, else 403 `human_check_failed` and
   * nothing is booked. The token is not part of the body, so an Idempotency-Key's body stays the
   * same when a retry carries a fresh token. API keys never come this way: they are not asked.
   */
  widget.post("/widget/v1/:business/carts/:cart_id/checkout", async (c, next) => {
    const config = c.get("widgetConfig");
    if (config) {
      const ip = c.env.TRUST_CF_CONNECTING_IP === "true" ? (c.req.header("CF-Connecting-IP") ?? null) : null;
      await requireHuman(c.env, config, c.req.header(TURNSTILE_HEADER) ?? null, ip);
    }
    await next();
  });

  /** Everything else: the public API v2, same handlers, same validation, same errors. */
  widget.all("/widget/v1/:business/*", async (c) => {
    const url = new URL(c.req.url);
    const prefix = `/widget/v1/${c.req.param("business")}`;
    const path = url.pathname.slice(prefix.length) || "/";
    const init: RequestInit = { headers: c.req.raw.headers };
    if (!["GET", "HEAD"].includes(c.req.method)) init.body = await c.req.raw.arrayBuffer();
    return runInner(c, c.req.method, path, url.searchParams, init);
  });
  return widget;
}
