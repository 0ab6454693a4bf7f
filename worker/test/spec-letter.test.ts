import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey } from "./helpers";
import { addToCart, cartBusiness, clock, guest, smallPackage, stay } from "./carts-fixtures";

// What the two API documents say, to the letter, where outside testing found the answers differed.

let key: string;
beforeAll(async () => {
  key = await createKey("public");
});
const post = (body: unknown) => callJson("/api/pub/v2/packages/prices", { key, body });
const d = (n: number) => addDays(MAY_SAT, n);
const pkg = (extra: Record<string, unknown> = {}) => ({ id: 101, start_date: MAY_SAT, end_date: d(7), ...extra });

/** A line as the public document types it: exactly these five fields, each of its type. */
function expectDocumentLine(line: Record<string, unknown>) {
  expect(Object.keys(line).sort()).toEqual(["guest_to_charge", "is_fixed", "package_item_id", "price", "product_id"]);
  expect(Number.isInteger(line.package_item_id)).toBe(true);
  expect(Number.isInteger(line.product_id)).toBe(true);
  expect(typeof line.price).toBe("number");
  expect(typeof line.is_fixed).toBe("boolean");
  expect(Array.isArray(line.guest_to_charge) && (line.guest_to_charge as unknown[]).every((g) => typeof g === "string")).toBe(true);
}

describe("POST /packages/prices lines, as the document types them", () => {
  it("gives every line, the package's own, the accommodation's and the srs's included, an integer package_item_id and no other field", async () => {
    const res = await post({
      currency: "EUR",
      guests: [
        { unique_id: "a", gender: "f", package: pkg({ accommodation_id: 205 }) },
        { unique_id: "b", gender: "m", package: pkg({ accommodation_id: 204, srs: true, items: [{ package_item_id: 1003, dates: [] }] }) },
      ],
    });
    expect(res.status).toBe(200);
    const lines = [...res.body.a, ...res.body.b];
    expect(lines.length).toBeGreaterThanOrEqual(6);
    lines.forEach(expectDocumentLine);
    // The package line and the accommodation line are told apart by their ids, stable across calls.
    const [pkgLine, roomLine] = res.body.a;
    expect(pkgLine.product_id).toBe(101);
    expect(roomLine.product_id).toBe(205);
    expect(pkgLine.package_item_id).not.toBe(roomLine.package_item_id);
    const again = await post({ currency: "EUR", guests: [{ unique_id: "z", gender: "f", package: pkg({ accommodation_id: 205 }) }] });
    expect(again.body.z.slice(0, 2).map((l: any) => l.package_item_id)).toEqual([pkgLine.package_item_id, roomLine.package_item_id]);
    // None of them is one of the package's items (GET /packages/{id} lists those).
    const items = await callJson(`/api/pub/v2/packages/101?start_date=${MAY_SAT}&duration=7`, { key });
    const itemIds = [...items.body.single_items, ...items.body.groups.flatMap((g: any) => g.items)].map((i: any) => i.package_item_id);
    for (const id of [pkgLine.package_item_id, roomLine.package_item_id]) expect(itemIds).not.toContain(id);
  });

  it("gives a package made after the migration its ids too, and ignores them when sent back as items", async () => {
    const businessId = (await env.DB.prepare("SELECT business_id FROM api_keys LIMIT 1").first<{ business_id: number }>())!.business_id;
    const id = await smallPackage(businessId, 5, "Fresh Package");
    const body = { currency: "EUR", guests: [{ unique_id: "n", gender: "f", package: { id, start_date: d(1), end_date: d(3) } }] };
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.n).toHaveLength(1);
    expectDocumentLine(res.body.n[0]);
    const own = res.body.n[0].package_item_id;
    const sentBack = await post({ ...body, guests: [{ ...body.guests[0], package: { ...body.guests[0].package, items: [{ package_item_id: own, dates: [] }] } }] });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.n).toEqual(res.body.n);
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])("answers the lines of a guest whose unique_id is %s", async (uniqueId) => {
    const res = await post({ currency: "EUR", guests: [{ unique_id: uniqueId, gender: "f", package: pkg({ accommodation_id: 202 }) }, { unique_id: "other", gender: "m", package: pkg({ accommodation_id: 201 }) }] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([uniqueId, "other"]);
    // the guest's own lines: the package, the room chosen, the included surf lessons
    expect(res.body[uniqueId].map((l: any) => l.product_id)).toEqual([101, 202, 301]);
    expect(res.body.other.map((l: any) => l.product_id)).toEqual([101, 201, 301]);
  });
});

describe("POST and PUT /persons: guest_group_id, diet_id and level_id typed string in the document", () => {
  it("takes a string of digits as the id, as it takes the integer", async () => {
    const privateKey = await createKey("private");
    const created = await callJson("/private/persons", { key: privateKey, body: { email: `digits.${crypto.randomUUID().slice(0, 8)}@example.com`, diet_id: "1", level_id: "2", guest_group_id: "7" } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ diet_id: 1, level_id: 2, guest_group_id: 7 });
    const updated = await callJson(`/private/persons/${created.body.data.id}`, { key: privateKey, method: "PUT", body: { diet_id: "2", level_id: 3 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ diet_id: 2, level_id: 3, guest_group_id: 7 });
  });

  it.each(["abc", "1.5", "-1", "", "0"])("still refuses %j with a 422 naming the field", async (value) => {
    const privateKey = await createKey("private");
    const res = await callJson("/private/persons", { key: privateKey, body: { email: `bad.${crypto.randomUUID().slice(0, 8)}@example.com`, diet_id: value } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain("diet_id");
  });
});

describe("Person and Booker fields the private document types as plain string", () => {
  const plain = [
    "language_code", "nationality_code", "phone_country_calling_code", "phone_country_code", "phone", "country_code", "state", "city", "zip_code",
    "address_line_1", "id_number", "id_expiry_date", "company_name", "tax_number", "company_address_line_1", "company_address_line_2",
  ];
  const orNull = ["first_name", "last_name", "gender", "birth_date", "address_line_2", "address_line_3", "id_type", "deleted_at"];

  it("are an empty string when unknown, never null; fields typed 'or null' stay null", async () => {
    const privateKey = await createKey("private");
    const created = await callJson("/private/persons", { key: privateKey, body: { email: `bare.${crypto.randomUUID().slice(0, 8)}@example.com` } });
    for (const person of [created.body.data, (await callJson(`/private/persons/${created.body.data.id}`, { key: privateKey })).body.data]) {
      for (const field of plain) expect([field, person[field]]).toEqual([field, ""]);
      for (const field of orNull) expect([field, person[field]]).toEqual([field, null]);
    }
  });

  it("are empty strings in a booker's and a guest's person, and in the booker's company data", async () => {
    const { businessId, key } = await cartBusiness();
    const privateKey = await createKey("private", businessId);
    const pkg = await smallPackage(businessId, 5);
    const { start, end } = stay(2);
    const t = clock();
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, {
      key,
      now: t(10),
      body: { terms_accepted: true, customer: { first_name: "Ana", last_name: "Bare", email: `bare.buyer.${crypto.randomUUID().slice(0, 8)}@example.com` } },
    });
    expect(booked.status).toBe(200);
    const booker = (await callJson(`/private/bookings/${booked.body.id}/booker`, { key: privateKey })).body.data;
    expect(booker.booking_related_data).toMatchObject({ company_name: "", tax_number: "" });
    const guests = (await callJson(`/private/guests?booking_id=${booked.body.id}`, { key: privateKey })).body;
    for (const person of [booker.person, guests[0].person]) {
      for (const field of ["phone", "city", "zip_code", "address_line_1", "company_name", "tax_number", "id_number"]) expect([field, person[field]]).toEqual([field, ""]);
    }
  });
});

describe("language=<a code the business has no texts in>", () => {
  const get = (path: string) => callJson(`/api/pub/v2${path}`, { key });

  it("answers 200 with the default language's texts, and Content-Language says which came back", async () => {
    const english = await get("/products");
    const french = await get("/products?language=fr");
    expect(french.status).toBe(200);
    expect(french.body).toEqual(english.body);
    expect(french.headers.get("Content-Language")).toBe("en");
    const german = await get("/products?language=de");
    expect(german.headers.get("Content-Language")).toBe("de");
    expect(german.body.find((p: any) => p.id === 101).title).toBe("Surf- & Yoga-Woche");
    const one = await get("/products/101?language=it");
    expect(one.status).toBe(200);
    expect(one.body.title).toBe("Surf & Yoga Week");
    expect(one.headers.get("Content-Language")).toBe("en");
  });

  it("does the same for package items and accommodations", async () => {
    const items = await get(`/packages/101?start_date=${MAY_SAT}&duration=7&language=fr`);
    expect(items.status).toBe(200);
    expect(items.headers.get("Content-Language")).toBe("en");
    expect(items.body).toEqual((await get(`/packages/101?start_date=${MAY_SAT}&duration=7`)).body);
    const rooms = await get(`/packages/101/accommodations?start_date=${MAY_SAT}&duration=7&males=1&females=0&couples=0&language=fr`);
    expect(rooms.status).toBe(200);
    expect(rooms.headers.get("Content-Language")).toBe("en");
  });

  it.each(["DE", "f", "fra", "1a"])("only a malformed code (%s) is a 422", async (code) => {
    const res = await get(`/products?language=${code}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(["language"]);
  });
});

describe("unknown ids in a list parameter: one rule everywhere", () => {
  const get = (path: string) => callJson(`/api/pub/v2${path}`, { key });
  const window = `start_date=${MAY_SAT}&end_date=${d(1)}`;

  it("GET /products/availabilities answers 404 naming an unknown id, as /products/prices does", async () => {
    const availability = await get(`/products/availabilities?${window}&ids[]=201&ids[]=999999`);
    const prices = await get(`/products/prices?start_date=${MAY_SAT}&pax=1&duration=1&product_ids[]=201&product_ids[]=999999`);
    for (const res of [availability, prices]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
      expect(res.body.detail).toContain("999999");
    }
    expect((await get(`/products/availabilities?${window}&ids=999999`)).status).toBe(404);
  });

  it("another business's product is unknown too, and known ids still answer", async () => {
    const other = await cartBusiness();
    const foreign = await smallPackage(other.businessId, 1);
    expect((await get(`/products/availabilities?${window}&ids[]=${foreign}`)).status).toBe(404);
    const ok = await get(`/products/availabilities?${window}&ids[]=201&ids[]=202`);
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body)).toEqual(["201", "202"]);
  });

  it("filters that match nothing are an empty answer, not an error", async () => {
    const res = await get(`/products/availabilities?${window}&type=bundle`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });
});

describe("GET /products/{id}/deeplink's product_id query parameter", () => {
  it.each([
    ["the public API", (path: string) => callJson(`/api/pub/v2${path}`, { key })],
    ["the widget proxy", (path: string) => callJson(`/widget/v1/demo${path}`, { headers: { Origin: "http://localhost:5173" } })],
  ] as const)("is accepted when it names the path's product, and a 422 when it names another (%s)", async (_door, get) => {
    const same = await get("/products/101/deeplink?product_id=101&duration=7");
    expect(same.status).toBe(200);
    expect(same.body.url).toMatch(/\/book\/demo\?product=101&duration=7$/);
    const other = await get("/products/101/deeplink?product_id=302");
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([{ path: "product_id", message: expect.stringContaining("path") }]);
  });
});
