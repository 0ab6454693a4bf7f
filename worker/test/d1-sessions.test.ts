import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { BASE, callJson, createBusiness, createKey, dbOf, watchedDb } from "./helpers";
import { createStaff, signedIn } from "./admin-fixtures";
import { adminBusiness } from "./manage-fixtures";
import { cartBusiness, clock, guest, smallPackage, stay } from "./carts-fixtures";

/**
 * The D1 Sessions API (docs/design.md "D1 sessions: which read may be stale"). Locally D1 has no
 * replicas, so what a replica would answer cannot be seen; what is tested is what decides it: which
 * session each request opens (the constraint or the bookmark handed to the real `withSession`,
 * heard through watchedDb), that the bookmark of a write's answer is what the client's next read
 * starts from, and that the answer shows what was written.
 */

const LOOPBACK_PAGE = "http://localhost:5173";
/** A bookmark of D1's form, as `<shard>:<bookmark>` in X-D1-Bookmark. */
const BOOKMARK = /^\d+:[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The Worker called with the real D1 of both shards watched: what each request handed to withSession, and its log line. */
async function watched(path: string, init: RequestInit & { key?: string } = {}) {
  const sessions: (string | undefined)[] = [];
  const DB = watchedDb({ session: (c) => void sessions.push(c) });
  const DB_SHARD_1 = watchedDb({ session: (c) => void sessions.push(c) }, env.DB_SHARD_1);
  const headers = new Headers(init.headers);
  if (init.key) headers.set("Authorization", `Bearer ${init.key}`);
  if (init.body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const log = vi.spyOn(console, "log");
  try {
    const res = await worker.fetch(new Request(new URL(path, BASE), { ...init, headers, redirect: "manual" }), { ...env, DB, DB_SHARD_1 } as typeof env, ctx);
    await waitOnExecutionContext(ctx);
    const line = log.mock.calls.map((args) => String(args[0])).filter((l) => l.startsWith('{"request_id"')).pop();
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // HTML or empty
    }
    return { status: res.status, headers: res.headers, body, sessions, logged: line ? JSON.parse(line).d1 : undefined };
  } finally {
    log.mockRestore();
  }
}

/** The D1 bookmark in an X-D1-Bookmark value. */
const d1Part = (value: string | null) => value!.split(":")[1];

describe("D1 sessions: which request reads through which", () => {
  it("sends catalog and availability reads to any replica, and writes, carts and the private API to the primary", async () => {
    const id = await createBusiness(`route-${crypto.randomUUID().slice(0, 8)}`, { widget_allow_loopback: true, rate_limit_per_minute: 100_000 }, 0);
    const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(id).first<{ slug: string }>())!.slug;
    const pub = await createKey("public", id);
    const priv = await createKey("private", id);
    const cases: [string, RequestInit & { key?: string }, string][] = [
      ["/api/pub/v2/settings", { key: pub }, "unconstrained"],
      ["/api/pub/v2/products", { key: pub }, "unconstrained"],
      ["/api/pub/v2/products/availabilities?start_date=2031-03-01&end_date=2031-03-08", { key: pub }, "unconstrained"],
      [`/widget/v1/${slug}/bootstrap`, { headers: { Origin: LOOPBACK_PAGE } }, "unconstrained"],
      [`/widget/v1/${slug}/seasons`, { method: "OPTIONS", headers: { Origin: LOOPBACK_PAGE, "Access-Control-Request-Method": "GET" } }, "unconstrained"],
      [`/book/${slug}`, {}, "unconstrained"],
      ["/api/pub/v2/carts/00000000-0000-7000-8000-000000000000", { key: pub }, "primary"],
      [`/widget/v1/${slug}/carts/00000000-0000-7000-8000-000000000000`, { headers: { Origin: LOOPBACK_PAGE } }, "primary"],
      ["/api/pub/v2/bookings/add", { key: pub, method: "POST", body: "{}" }, "primary"],
      ["/api/pub/v2/packages/prices", { key: pub, method: "POST", body: "{}" }, "primary"],
      ["/private/settings", { key: priv }, "primary"],
      ["/private/settings", { key: priv, method: "PATCH", body: JSON.stringify({ title: "Routed" }) }, "primary"],
      [`/admin/${slug}/today`, {}, "primary"],
    ];
    const seen: [string, string, string | undefined, string | undefined][] = [];
    const expected: [string, string, string | undefined, string | undefined][] = [];
    for (const [path, init, kind] of cases) {
      const got = await watched(path, init);
      seen.push([`${init.method ?? "GET"} ${path}`, got.logged, got.sessions.join(","), got.headers.get("X-D1-Bookmark")?.replace(BOOKMARK, "ok")]);
      const constraint = kind === "unconstrained" ? "first-unconstrained" : "first-primary";
      // every answer whose request read D1 carries a bookmark; a preflight may read nothing (the widget's door
      // remembers the business for half a second), nor does a back-office page that only sends the guest to sign in
      const mayReadNothing = init.method === "OPTIONS" || path.startsWith("/admin/");
      expected.push([`${init.method ?? "GET"} ${path}`, kind, constraint, mayReadNothing ? seen.at(-1)![3] : "ok"]);
    }
    expect(seen).toEqual(expected);
  });

  it("starts a catalog read from the bookmark it carries, and a cart read or a private one from the primary whatever it carries", async () => {
    const b = await adminBusiness();
    const first = await watched("/api/pub/v2/settings", { key: b.publicKey });
    const bookmark = first.headers.get("X-D1-Bookmark")!;
    expect(bookmark).toMatch(BOOKMARK);
    const read = await watched("/api/pub/v2/products", { key: b.publicKey, headers: { "X-D1-Bookmark": bookmark } });
    expect([read.status, read.logged, read.sessions]).toEqual([200, "bookmark", [d1Part(bookmark)]]);
    const cart = await watched("/api/pub/v2/carts/00000000-0000-7000-8000-000000000000", { key: b.publicKey, headers: { "X-D1-Bookmark": bookmark } });
    expect([cart.logged, cart.sessions]).toEqual(["primary", ["first-primary"]]);
    const priv = await watched("/private/settings", { key: b.privateKey, headers: { "X-D1-Bookmark": bookmark } });
    expect([priv.status, priv.logged, priv.sessions]).toEqual([200, "primary", ["first-primary"]]);
  });

  it("ignores a bookmark that is not one it gives, or is of another shard: served as without one, never a 4xx or 5xx", async () => {
    const b = await adminBusiness();
    const good = (await watched("/api/pub/v2/settings", { key: b.publicKey })).headers.get("X-D1-Bookmark")!;
    for (const bad of ["garbage", "", ":", `1:${d1Part(good)}`, `0:${d1Part(good)}x`, d1Part(good), `0:${"f".repeat(5_000)}`, "0:../../etc", `0:${d1Part(good)}\u0000`.slice(0, -1) + "Z"]) {
      const res = await watched("/api/pub/v2/settings", { key: b.publicKey, headers: { "X-D1-Bookmark": bad } });
      expect([bad.slice(0, 40), res.status, res.logged, res.sessions]).toEqual([bad.slice(0, 40), 200, "unconstrained", ["first-unconstrained"]]);
      // the answer carries a bookmark of its own, which the client keeps instead
      expect(res.headers.get("X-D1-Bookmark")).toMatch(BOOKMARK);
    }
  });
});

describe("D1 sessions: a write is seen by the same client's next read", () => {
  it("a catalog change through the private API, then the public API and the widget read with the answer's bookmark", async () => {
    const b = await adminBusiness({ widget_allow_loopback: true });
    // the widget's kept bootstrap and the public API's snapshot, before the change
    const widgetPath = `/widget/v1/${b.slug}/bootstrap`;
    expect((await callJson(widgetPath, { headers: { Origin: LOOPBACK_PAGE } })).body.settings.title).not.toBe("Read Your Writes Camp");
    expect((await b.pub("/settings")).status).toBe(200);

    const patch = await watched("/private/settings", { key: b.privateKey, method: "PATCH", body: JSON.stringify({ title: "Read Your Writes Camp" }) });
    expect([patch.status, patch.logged]).toEqual([200, "primary"]);
    const bookmark = patch.headers.get("X-D1-Bookmark");
    expect(bookmark).toMatch(BOOKMARK);

    const pubRead = await watched("/api/pub/v2/settings", { key: b.publicKey, headers: { "X-D1-Bookmark": bookmark! } });
    expect([pubRead.status, pubRead.sessions, pubRead.body.settings?.title ?? pubRead.body.title]).toEqual([200, [d1Part(bookmark)], "Read Your Writes Camp"]);

    const widgetRead = await watched(widgetPath, { headers: { Origin: LOOPBACK_PAGE, "X-D1-Bookmark": bookmark! } });
    expect([widgetRead.status, widgetRead.sessions, widgetRead.body.settings.title]).toEqual([200, [d1Part(bookmark)], "Read Your Writes Camp"]);
    // the widget can read the header (CORS exposes it) and send it (preflights allow it)
    expect(widgetRead.headers.get("Access-Control-Expose-Headers")).toMatch(/\bX-D1-Bookmark\b/i);
    const preflight = await watched(widgetPath, { method: "OPTIONS", headers: { Origin: LOOPBACK_PAGE, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-d1-bookmark" } });
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toMatch(/\bX-D1-Bookmark\b/i);
  });

  it("the back office: the page a save redirects to reads from the save's bookmark (its cookie) and shows the save", async () => {
    const slug = `bm-${crypto.randomUUID().slice(0, 8)}`;
    const businessId = await createBusiness(slug, {}, 0);
    const manager = await createStaff(businessId, "manager");
    const b = await signedIn(slug, manager.email, `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    const saved = await b.post(`/admin/${slug}/settings/terms`, { terms: "Pay on arrival, by card.", "terms_translations.de": "", "terms_translations.es": "" });
    expect(saved.status).toBe(303);
    const cookie = saved.headers.getSetCookie().find((c) => c.startsWith("d1_bookmark="));
    expect(cookie).toMatch(/^d1_bookmark=\d+:[0-9a-f-]+; Path=\/admin\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const bookmark = /^d1_bookmark=([^;]+)/.exec(cookie!)![1];
    expect(bookmark).toMatch(BOOKMARK);
    const page = await watched(new URL(saved.headers.get("Location")!, BASE).pathname, { headers: { Cookie: `${b.cookie}; ${b.bookmark}` } });
    expect([page.status, page.logged, page.sessions]).toEqual([200, "bookmark", [d1Part(bookmark)]]);
    expect(page.body).toContain("Pay on arrival, by card.");
    // a save itself starts from the primary, cookie or not
    const again = await watched(`/admin/${slug}/settings/terms`, { method: "POST", headers: { Cookie: `${b.cookie}; ${b.bookmark}`, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ _csrf: b.csrf ?? "", terms: "Pay later." }).toString() });
    expect([again.status, again.logged, again.sessions]).toEqual([303, "primary", ["first-primary"]]);
  });

  it("the widget: a guest's own hold shows in the next availability it reads with the hold's bookmark, where a kept answer served it before", async () => {
    const { businessId } = await cartBusiness({ widget_allow_loopback: true });
    const slug = (await (await dbOf(businessId)).prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!.slug;
    const pkg = await smallPackage(businessId, 3);
    const { start, end } = stay(1);
    const now = clock()(0);
    const path = `/widget/v1/${slug}/products/${pkg}/availabilities?start_date=${start}&end_date=${end}`;
    const before = await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now });
    expect(before.status).toBe(200);
    expect((await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now })).headers.get("X-Cache")).toBe("HIT");

    const add = await callJson(`/widget/v1/${slug}/bookings/add`, { headers: { Origin: LOOPBACK_PAGE }, body: { currency: "EUR", guests: [guest(pkg, start, end)] }, now });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    const bookmark = add.headers.get("X-D1-Bookmark")!;
    expect(bookmark).toMatch(BOOKMARK);

    const mine = await watched(path, { headers: { Origin: LOOPBACK_PAGE, "X-D1-Bookmark": bookmark, "X-Test-Now": now } });
    expect([mine.status, mine.sessions, mine.headers.get("X-Cache")]).toEqual([200, [d1Part(bookmark)], "MISS"]);
    expect([before.body[start].available, mine.body[start].available]).toEqual([3, 2]);
    // another guest, without a bookmark, is served what is kept: the fresher answer the guest's read left there
    const other = await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now });
    expect([other.headers.get("X-Cache"), other.body[start].available]).toEqual(["HIT", 2]);
  });
});
