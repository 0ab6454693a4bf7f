import { beforeAll, describe, expect, it } from "vitest";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createBusiness, createKey } from "./helpers";

let key: string;
beforeAll(async () => {
  key = await createKey("public");
});
const get = (path: string) => callJson(`/api/pub/v2${path}`, { key });

describe("GET /products", () => {
  it("lists only front-office or promoted products, with the spec's fields", async () => {
    const res = await get("/products");
    expect(res.status).toBe(200);
    expect(res.body.map((p: any) => p.id)).toEqual([101, 302, 303, 401, 402]);
    const week = res.body[0];
    expect(Object.keys(week).sort()).toEqual(
      [
        "id", "type", "title", "backoffice_title", "description", "extended_description", "image", "gender", "backoffice_category",
        "frontoffice_category", "location", "accommodation_type", "duration", "pax", "default_start_time", "is_private",
        "allowed_checkin_days", "is_on_timeslots", "price_from",
      ].sort(),
    );
    expect(week).toMatchObject({
      type: "package",
      title: "Surf & Yoga Week",
      frontoffice_category: { id: 11, title: "Surf Camps" },
      backoffice_category: { id: 1, title: "Packages" },
      location: { id: 1, title: "Ericeira, Portugal" },
      accommodation_type: null,
      duration: { is_flexible: true, min: 7, default: 7, unit: "day", variants: [7, 14] },
      pax: { min: 1, max: 8 },
      allowed_checkin_days: { sat: true, sun: false, mon: false },
      is_on_timeslots: false,
      image: { small: expect.stringMatching(/^https:/) },
      // a package's shortest stay (7 nights) for one guest at its lowest rate (45.00 EUR, low
      // season), its default item (surf lessons, 0 per stay) included: 315; 315 * 1.085 = 341.775 -> 341.78
      price_from: [{ value: 315, currency: "EUR" }, { value: 341.78, currency: "USD" }],
    });
    const yoga = res.body.find((p: any) => p.id === 302);
    expect(yoga).toMatchObject({ is_on_timeslots: true, default_start_time: "08:00", price_from: [{ value: 10, currency: "EUR" }, { value: 10.85, currency: "USD" }] });
  });

  it("filters by type and location", async () => {
    expect((await get("/products?type=rental")).body.map((p: any) => p.id)).toEqual([401, 402]);
    expect((await get("/products?type=accommodation")).body).toEqual([]); // none is on the front office
    expect((await get("/products?location=1&type=activity")).body.map((p: any) => p.id)).toEqual([302, 303]);
    expect((await get("/products?location=2")).body).toEqual([]);
  });

  it("translates title and description, falling back to the default language field by field", async () => {
    const res = await get("/products?language=de");
    const week = res.body[0];
    expect(week.title).toBe("Surf- & Yoga-Woche");
    expect(week.description).toMatch(/^Sieben Nächte/);
    expect(week.extended_description).toMatch(/^Arrive on Saturday/); // no German text: English
    expect(week.backoffice_title).toBe("PKG Surf+Yoga 7n"); // never translated
    expect((await get("/products?language=en")).body[0].title).toBe("Surf & Yoga Week");
  });

  it.each([
    ["/products?type=hotel", "type"],
    ["/products?location=abc", "location"],
    ["/products?location=-1", "location"],
    ["/products?language=f1", "language"],
    ["/products?language=DE", "language"],
  ])("answers 422 problem+json to %s", async (path, field) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors.map((e: any) => e.path)).toContain(field);
  });
});

describe("GET /products/{id}", () => {
  it("returns any product of the business, listed or not", async () => {
    const res = await get("/products/201?language=es");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 201, type: "accommodation", title: "Dormitorio Océano (hombres)", gender: "male",
      accommodation_type: { id: 1, title: "Dorm" }, frontoffice_category: null, is_private: false,
    });
    expect((await get("/products/205")).body).toMatchObject({ is_private: true, accommodation_type: { id: 2, title: "Room" } });
    expect((await get("/products/501")).body.gender).toBe("mixed");
  });

  it("answers 404 to an unknown id and 422 to a malformed one", async () => {
    const missing = await get("/products/999");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", status: 404 });
    expect((await get("/products/abc")).status).toBe(422);
    expect((await get("/products/0")).status).toBe(422);
    // Ids pass 32 bits (each shard gives its own range of 10^12: docs/design.md "Shards"): unknown, not malformed.
    expect((await get("/products/99999999999")).status).toBe(404);
    expect((await get(`/products/${Number.MAX_SAFE_INTEGER + 1}`)).status).toBe(422);
  });
});

describe("GET /seasons", () => {
  it("lists each season with its segments in date order, bounds inclusive", async () => {
    const res = await get("/seasons");
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => s.title)).toEqual(["High season", "Holidays", "Low season"]);
    const high = res.body[0];
    expect(high.segments.length).toBeGreaterThanOrEqual(3);
    expect(high.segments[0]).toEqual({ id: expect.any(Number), start_date: expect.stringMatching(/-06-15$/), end_date: expect.stringMatching(/-09-15$/) });
    const starts = high.segments.map((s: any) => s.start_date);
    expect(starts).toEqual([...starts].sort());
  });
});

describe("GET /products/{id}/deeplink", () => {
  it("links to the hosted booking page on the request's origin with the given settings", async () => {
    const res = await get(`/products/101/deeplink?product_id=101&start_date=${MAY_SAT}&duration=7&males=1&females=2&couples=0&language=de&currency=USD`);
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`http://127.0.0.1/book/demo?product=101&start_date=${MAY_SAT}&duration=7&males=1&females=2&couples=0&language=de&currency=USD`);
    expect((await get("/products/302/deeplink")).body.url).toBe("http://127.0.0.1/book/demo?product=302");
  });

  it("refuses a mismatching product_id, an unknown currency, and unknown products", async () => {
    expect((await get("/products/101/deeplink?product_id=302")).status).toBe(422);
    // a language the business has no texts in: the form opens in the default language, and the link says so
    expect((await get("/products/101/deeplink?language=fr")).body.url).toBe("http://127.0.0.1/book/demo?product=101&language=en");
    expect((await get("/products/101/deeplink?currency=GBP")).body.errors).toEqual([{ path: "currency", message: expect.stringMatching(/unknown currency/) }]);
    expect((await get("/products/101/deeplink?males=-1")).status).toBe(422);
    expect((await get(`/products/101/deeplink?start_date=${MAY_SAT}&end_date=2000-01-01`)).status).toBe(422);
    expect((await get("/products/999/deeplink")).status).toBe(404);
  });
});

describe("tenant isolation", () => {
  it("shows another business's key none of the demo's catalog", async () => {
    const other = await createBusiness("catalog-isolation");
    const otherKey = await createKey("public", other);
    const as = (path: string) => callJson(`/api/pub/v2${path}`, { key: otherKey });
    expect((await as("/products")).body).toEqual([]);
    expect((await as("/products/101")).status).toBe(404);
    expect((await as("/products/101/availabilities")).status).toBe(404);
    expect((await as(`/products/101/prices?start_date=${MAY_SAT}&pax=1`)).status).toBe(404);
    expect((await as(`/products/prices?product_ids[]=101&start_date=${MAY_SAT}&pax=1&duration=7`)).status).toBe(404);
    expect((await as("/products/101/deeplink")).status).toBe(404);
    expect((await as(`/packages/101?start_date=${MAY_SAT}&duration=7`)).status).toBe(404);
    expect((await as(`/packages/101/accommodations?start_date=${MAY_SAT}&duration=7&males=1&females=0&couples=0`)).status).toBe(404);
    expect((await as("/products/availabilities?ids[]=101")).status).toBe(404); // an id of another business is unknown here
    expect((await as("/seasons")).body).toEqual([]);
    const body = { currency: "EUR", guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: MAY_SAT, end_date: MAY_SAT } }] };
    expect((await callJson("/api/pub/v2/packages/prices", { key: otherKey, body })).status).toBe(404);
  });
});
