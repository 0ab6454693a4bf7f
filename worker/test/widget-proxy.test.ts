import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { BASE, callJson, createBusiness, createKey, fetchWorker, watchedDb } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const LOOPBACK_PAGE = "http://localhost:5173";

describe("widget proxy: the business and the origin", () => {
  it("serves the demo's settings to a loopback page without any API key", async () => {
    const res = await callJson("/widget/v1/demo/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Blue Wave Surf & Yoga Camp");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    expect(res.headers.get("Vary")).toContain("Origin");
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("Retry-After");
  });

  it("answers 404 problem+json for an unknown business", async () => {
    const res = await callJson("/widget/v1/no-such-camp/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 404, code: "not_found" });
  });

  it("refuses an origin the business does not list with 403 origin_not_allowed", async () => {
    const res = await callJson("/widget/v1/demo/settings", { headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body.code).toBe("origin_not_allowed");
    // Readable by that page (so the widget tells the guest why), with the fixed non-credential
    // answer: a foreign origin is never echoed.
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });

  it("refuses the opaque 'null' origin", async () => {
    const res = await callJson("/widget/v1/demo/settings", { headers: { Origin: "null" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("origin_not_allowed");
    // A sandboxed frame can read the refusal too.
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("allows exactly the origins a business lists, and loopback only when it says so", async () => {
    await createBusiness("listed-camp", { widget_origins: ["https://surfcamp.example"], widget_allow_loopback: false });
    const listed = await callJson("/widget/v1/listed-camp/settings", { headers: { Origin: "https://surfcamp.example" } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Access-Control-Allow-Origin")).toBe("https://surfcamp.example");
    const otherPort = await callJson("/widget/v1/listed-camp/settings", { headers: { Origin: "https://surfcamp.example:8443" } });
    expect(otherPort.status).toBe(403);
    const loopback = await callJson("/widget/v1/listed-camp/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(loopback.status).toBe(403);
    // the Worker's own pages (/book/{business}) are same-origin and always allowed
    const self = await callJson("/widget/v1/listed-camp/settings", { headers: { Origin: "http://127.0.0.1" } });
    expect(self.status).toBe(200);
  });

  it("answers a CORS preflight from an allowed origin with 204 and the allowed methods and headers", async () => {
    const res = await callJson("/widget/v1/demo/bookings/add", {
      method: "OPTIONS",
      headers: { Origin: LOOPBACK_PAGE, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,idempotency-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("idempotency-key");
    expect(Number(res.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
  });

  it("lets a foreign origin's preflight through only to refuse the request itself, which changes nothing", async () => {
    const preflight = await callJson("/widget/v1/demo/bookings/add", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM carts").first<{ n: number }>();
    const add = await callJson("/widget/v1/demo/bookings/add", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
      body: JSON.stringify({ currency: "EUR", guests: [] }),
    });
    expect(add.status).toBe(403);
    expect(add.body.code).toBe("origin_not_allowed");
    expect(add.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM carts").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("applies a change of the allowed origins made behind the Worker's back within half a second", async () => {
    const id = await createBusiness("moving-camp", { widget_origins: ["https://old.example"] });
    const page = { headers: { Origin: "https://new.example" } };
    const at = (ms: number) => new Date(Date.parse("2031-05-05T10:00:00.000Z") + ms).toISOString();
    expect((await callJson("/widget/v1/moving-camp/settings", { ...page, now: at(0) })).status).toBe(403);
    // as `wrangler d1 execute` would: nothing tells this process
    await env.DB.prepare("UPDATE businesses SET config = ? WHERE id = ?").bind(JSON.stringify({ widget_origins: ["https://new.example"] }), id).run();
    expect((await callJson("/widget/v1/moving-camp/settings", { ...page, now: at(500) })).status).toBe(200);
    expect((await callJson("/widget/v1/moving-camp/settings", { headers: { Origin: "https://old.example" }, now: at(500) })).status).toBe(403);
  });

  it("allows the tracing headers a host page's fetch wrapper adds", async () => {
    const res = await callJson("/widget/v1/demo/bookings/add", {
      method: "OPTIONS",
      headers: { Origin: LOOPBACK_PAGE, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,traceparent,tracestate,baggage" },
    });
    expect(res.status).toBe(204);
    const allowed = (res.headers.get("Access-Control-Allow-Headers") ?? "").toLowerCase().split(",").map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(["traceparent", "tracestate", "baggage"]));
  });

  it("does not let the widget door reach another business's data through the slug of its own", async () => {
    const other = await createBusiness("second-camp", { widget_allow_loopback: true });
    const res = await callJson("/widget/v1/second-camp/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(other);
    expect(res.body.title).toBe("Business second-camp");
  });

  it("keeps the widget's paths out of /openapi.json", async () => {
    const res = await callJson("/openapi.json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).some((p) => p.includes("widget"))).toBe(false);
  });
});

describe("widget proxy: rate limit per visitor", () => {
  it("answers 429 with Retry-After and CORS headers past the business's limit, per client address", async () => {
    await createBusiness("tiny-camp", { widget_allow_loopback: true, rate_limit_per_minute: 3 });
    const visitor = { Origin: LOOPBACK_PAGE, "CF-Connecting-IP": "203.0.113.7" };
    // Every request at one instant of the test clock, 30 s into a minute: all in one window
    // however slowly they run, and the refusal says exactly how long is left of it.
    const now = "2026-11-21T10:00:30.000Z";
    for (let i = 0; i < 3; i++) {
      const ok = await callJson("/widget/v1/tiny-camp/settings", { headers: visitor, now });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit-Limit")).toBe("3");
      expect(ok.headers.get("RateLimit-Remaining")).toBe(String(2 - i));
    }
    const res = await callJson("/widget/v1/tiny-camp/settings", { headers: visitor, now });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(res.headers.get("Retry-After")).toBe("30");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    // another visitor is not punished for the first one's clicks
    const other = await callJson("/widget/v1/tiny-camp/settings", { headers: { ...visitor, "CF-Connecting-IP": "203.0.113.8" }, now });
    expect(other.status).toBe(200);
    // the next minute is a new window for the first visitor
    const next = await callJson("/widget/v1/tiny-camp/settings", { headers: visitor, now: "2026-11-21T10:01:00.000Z" });
    expect(next.status).toBe(200);
    expect(next.headers.get("RateLimit-Remaining")).toBe("2");
  });
});

describe("widget proxy: the door's memory of businesses", () => {
  it("finds a business created after its slug was asked for (an unknown slug is never remembered)", async () => {
    const before = await callJson("/widget/v1/late-camp/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(before.status).toBe(404);
    await createBusiness("late-camp", { widget_allow_loopback: true });
    const after = await callJson("/widget/v1/late-camp/settings", { headers: { Origin: LOOPBACK_PAGE } });
    expect(after.status).toBe(200);
    expect(after.body.title).toBe("Business late-camp");
  });
});

describe("widget proxy: edge cache", () => {
  it("serves a catalog read from the edge cache the second time, and a catalog changed behind the Worker's back within half a second", async () => {
    await createBusiness("cached-camp", { widget_allow_loopback: true });
    const at = (ms: number) => new Date(Date.parse("2031-05-06T10:00:00.000Z") + ms).toISOString();
    const read = (ms: number) => callJson("/widget/v1/cached-camp/settings", { headers: { Origin: LOOPBACK_PAGE }, now: at(ms) });
    const first = await read(0);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const second = await read(0);
    expect(second.status).toBe(200);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(second.body.title).toBe("Business cached-camp");
    expect(second.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    expect(second.headers.get("Cache-Control")).toBe("no-cache"); // browsers revalidate, so a change reaches them too
    // Any write to the catalog changes its version (migration 0070's triggers), here as
    // `wrangler d1 execute` makes it, telling no process: half a second later it is read.
    await env.DB.prepare("UPDATE businesses SET title = 'Renamed' WHERE slug = 'cached-camp'").run();
    const third = await read(500);
    expect(third.headers.get("X-Cache")).toBe("MISS");
    expect(third.body.title).toBe("Renamed");
  });
});

describe("widget bootstrap: kept answers, D1 reads and how soon a change shows", () => {
  /** The worker called with the real D1, counting its round trips. */
  const counted = () => {
    const trips = { count: 0 };
    const db = watchedDb({ trip: () => void trips.count++ });
    const get = async (path: string, now?: string) => {
      const ctx = createExecutionContext();
      const headers: Record<string, string> = { Origin: LOOPBACK_PAGE };
      if (now) headers["X-Test-Now"] = now;
      const res = await worker.fetch(new Request(`${BASE}${path}`, { headers }), { ...env, DB: db } as typeof env, ctx);
      await waitOnExecutionContext(ctx);
      return { status: res.status, cache: res.headers.get("X-Cache"), body: (await res.json()) as any };
    };
    return { trips, get };
  };

  it("answers a kept bootstrap with no D1 read at all", async () => {
    const { trips, get } = counted();
    const now = "2031-02-11T09:00:00.000Z";
    const path = "/widget/v1/demo/bootstrap?product=101&language=de";
    const first = await get(path, now);
    expect(first.status).toBe(200);
    expect(first.cache).toBe("MISS");
    expect(trips.count).toBeGreaterThan(0);
    trips.count = 0;
    for (let i = 0; i < 3; i++) {
      const again = await get(path, now);
      expect(again.cache).toBe("HIT");
      expect(again.body).toEqual(first.body);
    }
    expect(trips.count).toBe(0);
  });

  it("shows a change made behind the Worker's back (wrangler d1 execute) through the widget within a second", async () => {
    const id = await createBusiness("bound-camp", { widget_allow_loopback: true });
    const path = "/widget/v1/bound-camp/bootstrap";
    const before = await callJson(path, { headers: { Origin: LOOPBACK_PAGE } });
    expect(before.body.settings.title).toBe("Business bound-camp");
    expect((await callJson(path, { headers: { Origin: LOOPBACK_PAGE } })).headers.get("X-Cache")).toBe("HIT");
    await env.DB.prepare("UPDATE businesses SET title = 'Bound Camp, renamed' WHERE id = ?").bind(id).run();
    const changedAt = Date.now();
    // polled on the wall clock, as a guest reloading would see it: a condition with a deadline
    let title = before.body.settings.title;
    while (title !== "Bound Camp, renamed" && Date.now() - changedAt < 5_000) {
      await new Promise((r) => setTimeout(r, 20));
      title = (await callJson(path, { headers: { Origin: LOOPBACK_PAGE } })).body.settings.title;
    }
    expect(title).toBe("Bound Camp, renamed");
    expect(Date.now() - changedAt).toBeLessThanOrEqual(1_000);
  });

  it("shows a change made through the private API on this process's next request", async () => {
    const now = "2031-02-12T09:00:00.000Z";
    const id = await createBusiness("patched-camp", { widget_allow_loopback: true });
    const key = await createKey("private", id);
    const path = "/widget/v1/patched-camp/bootstrap";
    expect((await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now })).body.theme).toEqual({});
    expect((await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now })).headers.get("X-Cache")).toBe("HIT");
    const patch = await callJson("/private/settings", { key, method: "PATCH", body: { widget_theme: { "--bw-accent": "#b41e5a" } }, now });
    expect(patch.status).toBe(200);
    const after = await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now });
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(after.body.theme).toEqual({ "--bw-accent": "#b41e5a" });
  });
});

describe("widget bootstrap", () => {
  it("returns settings, the product, its package items and a priced calendar in one answer", async () => {
    const res = await callJson("/widget/v1/demo/bootstrap?product=101&language=de&currency=USD", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.language).toBe("de");
    expect(b.currency).toBe("USD");
    expect(b.settings.languages).toEqual(["en", "de", "es"]);
    expect(b.product).toMatchObject({ id: 101, type: "package", title: "Surf- & Yoga-Woche" });
    expect(b.products).toHaveLength(1);
    const days = Object.keys(b.calendar.dates);
    expect(days.length).toBeGreaterThan(27);
    const checkins = days.filter((d) => b.calendar.dates[d].available_for_checkin);
    expect(checkins.length).toBeGreaterThan(3);
    // the package checks in on Saturdays only, and every check-in day carries a price
    for (const d of checkins) {
      expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBe(6);
      expect(b.calendar.dates[d].price).toBeGreaterThan(0);
    }
    expect(b.start_date).toBe(checkins[0]);
    expect(b.package.start_date).toBe(b.start_date);
    const items = [...b.package.single_items, ...b.package.groups.flatMap((g: any) => g.items)];
    expect(items.map((i: any) => i.package_item_id).sort()).toEqual([1001, 1002, 1003, 1004, 1005]);
  });

  it("says, per check-in day, what is left of each room type for the whole stay, sold-out types included", async () => {
    const now = "2031-03-03T09:00:00.000Z"; // a calendar of its own: the edge cache keeps answers per test clock
    const first: any = await callJson("/widget/v1/demo/calendar?product=101&from=2031-03-03&to=2031-03-31&language=de", { headers: { Origin: LOOPBACK_PAGE }, now });
    expect(first.status).toBe(200);
    const types = first.body.rooms;
    expect(types.map((r: any) => r.id).sort()).toEqual([201, 202, 203, 204, 205]);
    expect(types.find((r: any) => r.id === 201)).toMatchObject({ title: "Ozean-Schlafsaal (Männer)", is_private: false, gender: "male" });
    const saturdays = Object.keys(first.body.dates).filter((d) => first.body.dates[d].available_for_checkin);
    const day = saturdays[1];
    expect(first.body.dates[day].rooms[205]).toBeGreaterThan(0);
    // every Sea View Double taken on one night of that week: the type is there, with nothing left
    const night = new Date(`${day}T00:00:00Z`);
    night.setUTCDate(night.getUTCDate() + 3);
    await env.DB.prepare("INSERT OR REPLACE INTO inventory (business_id, product_id, date, slot, capacity, blocked) VALUES (1, 205, ?, '', 0, 0)").bind(night.toISOString().slice(0, 10)).run();
    const later = "2031-03-03T09:00:30.000Z";
    const second: any = await callJson("/widget/v1/demo/calendar?product=101&from=2031-03-03&to=2031-03-31&language=de", { headers: { Origin: LOOPBACK_PAGE }, now: later });
    expect(second.body.dates[day].rooms[205]).toBe(0);
    expect(second.body.dates[saturdays[0]].rooms[205]).toBeGreaterThan(0);
    expect(second.body.rooms.map((r: any) => r.id)).toContain(205);
  });

  it("serves a repeated bootstrap whole from the edge cache, behind the door's checks", async () => {
    const now = "2031-01-15T09:00:00.000Z"; // an answer of its own in the cache
    const path = "/widget/v1/demo/bootstrap?product=101&language=es";
    const first = await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const second = await callJson(path, { headers: { Origin: LOOPBACK_PAGE }, now });
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    expect(second.headers.get("Cache-Control")).toBe("no-cache"); // browsers revalidate availability
    const foreign = await callJson(path, { headers: { Origin: "https://not-allowed.example" }, now });
    expect(foreign.status).toBe(403);
  });

  it("lists the front-office products when no product is given, and falls back to the defaults", async () => {
    const res = await callJson("/widget/v1/demo/bootstrap?language=fr&currency=GBP", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(200);
    expect(res.body.language).toBe("en");
    expect(res.body.currency).toBe("EUR");
    expect(res.body.product).toBeNull();
    expect(res.body.products.map((p: any) => p.id)).toContain(101);
  });

  it("answers 422 with the invalid field for a malformed query", async () => {
    const res = await callJson("/widget/v1/demo/bootstrap?product=abc&start_date=2026-02-30", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(["product", "start_date"]);
  });

  it("answers 404 for a product that does not exist", async () => {
    const res = await callJson("/widget/v1/demo/bootstrap?product=999999", { headers: { Origin: LOOPBACK_PAGE } });
    expect(res.status).toBe(404);
  });
});

describe("pages", () => {
  it("serves /demo with the lines a site owner pastes, the stylesheet that keeps the widget's room first", async () => {
    const res = await fetchWorker("http://127.0.0.1/demo");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('<script type="module" src="/widget.js"></script>');
    expect(text).toContain('<booking-widget business="demo" product="101"></booking-widget>');
    expect(text).toContain("&lt;link rel=&quot;stylesheet&quot; href=&quot;http://127.0.0.1/widget.css&quot;&gt;\n&lt;script type=&quot;module&quot; src=&quot;http://127.0.0.1/widget.js&quot;&gt;");
    const css = await fetchWorker("http://127.0.0.1/widget.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toContain("text/css");
    expect(await css.text()).toContain("booking-widget:not(:defined){min-height:calc(53 * var(--bw-font-size, 16px))}");
  });

  it("preselects a deep link's parameters on /book/{business} and drops invalid or unsafe ones", async () => {
    const res = await fetchWorker('http://127.0.0.1/book/demo?product=101&start_date=2026-12-05&duration=7&males=1&females=2&couples=0&language=de&currency=USD&evil="><script>');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('<booking-widget business="demo" product="101" start-date="2026-12-05" duration="7" males="1" females="2" couples="0" language="de" currency="USD"></booking-widget>');
    expect(text).not.toContain('"><script>');
    expect(text).not.toContain("evil");
  });

  it("answers 404 on /book for an unknown business", async () => {
    expect((await fetchWorker("http://127.0.0.1/book/nobody")).status).toBe(404);
  });
});

describe("widget proxy: carts and fresh availability", () => {
  it("runs the cart handlers for a visitor, keyed to the visitor, never cached", async () => {
    const boot = await callJson("/widget/v1/demo/bootstrap?product=101", { headers: { Origin: LOOPBACK_PAGE } });
    const start: string = boot.body.start_date;
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    const headers = { Origin: LOOPBACK_PAGE, "CF-Connecting-IP": "198.51.100.23", "Idempotency-Key": crypto.randomUUID() };
    const added = await callJson("/widget/v1/demo/bookings/add", {
      headers,
      body: { currency: "EUR", guests: [{ first_name: "Wid", last_name: "Get", gender: "m", birth_date: "1990-01-01", package: { id: 101, start_date: start, end_date: end, accommodation_id: 201 } }] },
    });
    expect([200, 201]).toContain(added.status);
    expect(added.headers.get("Access-Control-Allow-Origin")).toBe(LOOPBACK_PAGE);
    const cartId = added.body.cart_id;
    const row = await env.DB.prepare("SELECT client_id FROM carts WHERE id = ?").bind(cartId).first<{ client_id: string }>();
    expect(row?.client_id).toBe("widget:198.51.100.23");
    const cart = await callJson(`/widget/v1/demo/carts/${cartId}`, { headers: { Origin: LOOPBACK_PAGE } });
    expect(cart.status).toBe(200);
    expect(cart.body.guests[0].first_name).toBe("Wid");
    expect(cart.headers.get("X-Cache")).toBeNull();
    expect(cart.headers.get("Cache-Control")).toBe("no-store");
  });

  it("keeps availability at the edge for a few seconds only, the catalog longer", async () => {
    const path = "/widget/v1/demo/products/302/availabilities?start_date=2030-01-07&end_date=2030-01-08";
    const catalog = "/widget/v1/demo/settings?for=edge-ttl";
    const xCache = async (p: string) => (await callJson(p, { headers: { Origin: LOOPBACK_PAGE } })).headers.get("X-Cache");
    expect(await xCache(catalog)).toBe("MISS");
    expect(await xCache(path)).toBe("MISS");
    expect(await xCache(path)).toBe("HIT");
    expect(await xCache(catalog)).toBe("HIT");
    // The Cache API ages entries on the wall clock: wait for the availability to be asked again
    // (a condition, polled), then the catalog read kept at the same moment must still be a hit.
    const deadline = Date.now() + 30_000;
    let state = "HIT";
    while (state === "HIT" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      state = (await xCache(path))!;
    }
    expect(state).toBe("MISS");
    expect(await xCache(catalog)).toBe("HIT");
  });
});
