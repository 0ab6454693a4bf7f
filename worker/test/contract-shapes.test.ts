import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createKey } from "./helpers";
import { loadDocument } from "./fuzz-harness";
import type { OpenApiDoc } from "./fuzz-schema";

// Issue 29, the integrator's contract: every rule the server applies to a body and the schema can
// state is in /openapi.json, and the server takes what the schema says (and refuses what it refuses).

type S = Record<string, any>;
let doc: OpenApiDoc;
const schemas = () => doc.components!.schemas as Record<string, S>;
const deref = (s: S): S => (s?.$ref ? deref(schemas()[String(s.$ref).split("/").pop()!]) : s);
const bodyOf = (path: string, method: string): S => deref(doc.paths[path][method].requestBody.content["application/json"].schema);
const okBodyOf = (path: string, method: string, status: string): S => deref(doc.paths[path][method].responses[status].content["application/json"].schema);
const fieldsIn = (errors: { path: string }[] | undefined) => (errors ?? []).map((e) => e.path);

let key: string;
let pub: string;
beforeAll(async () => {
  doc = await loadDocument();
  key = await createKey("private");
  pub = await createKey("public");
});
const priv = (path: string, method = "GET", body?: unknown) => callJson(`/private${path}`, { key, method, body });

describe("catalog lookups: each kind its own schema, and the server takes exactly it", () => {
  const FIELDS: Record<string, string[]> = {
    locations: ["ref", "title"],
    categories: ["kind", "ref", "title"],
    "accommodation-types": ["ref", "title"],
    diets: ["abbreviation", "description", "ref", "title"],
    levels: ["abbreviation", "description", "ref", "title"],
  };

  it.each(Object.entries(FIELDS))("%s: the create, patch and answer schemas hold only that kind's fields", (kind, fields) => {
    const create = bodyOf(`/private/catalog/${kind}`, "post");
    expect(Object.keys(create.properties).sort()).toEqual(fields);
    expect(create.additionalProperties).toBe(false);
    expect(Object.keys(bodyOf(`/private/catalog/${kind}/{id}`, "patch").properties).sort()).toEqual([...fields, "archived"].sort());
    const answer = deref(okBodyOf(`/private/catalog/${kind}`, "post", "201").properties.data);
    expect(Object.keys(answer.properties).sort()).toEqual([...fields.filter((f) => f !== "ref" && f !== "title"), "archived", "archived_at", "id", "ref", "title"].sort());
    if (kind === "categories") expect(create.required).toContain("kind");
  });

  it("a field of another kind is a 422 naming it, and nothing is made; each kind's own fields are taken", async () => {
    const before = (await priv("/catalog/locations?archived=all")).body.data.length;
    for (const extra of [{ kind: "frontoffice" }, { description: "x" }, { abbreviation: "X" }]) {
      const refused = await priv("/catalog/locations", "POST", { title: "Harbour", ...extra });
      expect(refused.status).toBe(422);
      expect(fieldsIn(refused.body.errors)).toEqual(Object.keys(extra));
    }
    expect((await priv("/catalog/locations?archived=all")).body.data.length).toBe(before);
    const noKind = await priv("/catalog/categories", "POST", { title: "Boats" });
    expect(noKind.status).toBe(422);
    expect(fieldsIn(noKind.body.errors)).toEqual(["kind"]);

    const location = await priv("/catalog/locations", "POST", { title: "Harbour" });
    expect(location.status).toBe(201);
    expect(Object.keys(location.body.data).sort()).toEqual(["archived", "archived_at", "id", "ref", "title"]);
    const diet = await priv("/catalog/diets", "POST", { title: "Halal", description: "No pork", abbreviation: "H" });
    expect(diet.status).toBe(201);
    expect(diet.body.data).toMatchObject({ title: "Halal", description: "No pork", abbreviation: "H" });
    const patched = await priv(`/catalog/levels/1`, "PATCH", { kind: "backoffice" });
    expect(patched.status).toBe(422);
    expect(fieldsIn(patched.body.errors)).toEqual(["kind"]);
  });
});

describe("seasons: a new season's segments have no id", () => {
  it("the create schema's segments take start_date and end_date only; a PATCH's may name the segment kept", () => {
    const segment = (s: S) => deref(deref(s.properties.segments).items);
    expect(Object.keys(segment(bodyOf("/private/catalog/seasons", "post")).properties).sort()).toEqual(["end_date", "start_date"]);
    expect(segment(bodyOf("/private/catalog/seasons", "post")).additionalProperties).toBe(false);
    expect(Object.keys(segment(bodyOf("/private/catalog/seasons/{id}", "patch")).properties).sort()).toEqual(["end_date", "id", "start_date"]);
  });

  it("segments[].id on create is a 422 naming it, and no season is made", async () => {
    const before = (await priv("/catalog/seasons?archived=all")).body.data.length;
    const refused = await priv("/catalog/seasons", "POST", { title: "Peak", segments: [{ id: 1, start_date: "2027-07-01", end_date: "2027-08-31" }] });
    expect(refused.status).toBe(422);
    expect(fieldsIn(refused.body.errors)).toEqual(["segments.0.id"]);
    expect((await priv("/catalog/seasons?archived=all")).body.data.length).toBe(before);
    const made = await priv("/catalog/seasons", "POST", { title: "Peak", segments: [{ start_date: "2027-07-01", end_date: "2027-08-31" }] });
    expect(made.status).toBe(201);
  });
});

describe("products: the fields of each type, as a discriminated union on type", () => {
  it("ProductCreate is oneOf with a discriminator mapping every type; only accommodations have rooms, only packages contents", () => {
    const create = bodyOf("/private/catalog/products", "post");
    expect(create.oneOf).toHaveLength(3);
    expect(create.discriminator.propertyName).toBe("type");
    expect(Object.keys(create.discriminator.mapping).sort()).toEqual(["accommodation", "activity", "bundle", "item", "package", "rental", "service"]);
    const branch = (type: string) => deref({ $ref: create.discriminator.mapping[type] });
    expect(branch("accommodation").required).toContain("accommodation");
    expect(branch("activity").properties.accommodation.type).toBe("null");
    expect(branch("activity").properties.package.type).toBe("null");
    expect(deref(branch("package").properties.package).properties.items).toBeDefined();
  });

  it("the server agrees: a field of another type is a 422 naming it; a valid product of each shape is made as before", async () => {
    const room = { rooms: 2, beds_per_room: 4, is_private: false };
    const wrong = [
      [{ type: "activity", title: "Kayak", accommodation: room }, "accommodation"],
      [{ type: "accommodation", title: "Dorm" }, "accommodation"],
      [{ type: "rental", title: "Board", package: { items: [] } }, "package"],
      [{ type: "boat", title: "Boat" }, "type"],
    ] as const;
    for (const [body, field] of wrong) {
      const res = await priv("/catalog/products", "POST", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(fieldsIn(res.body.errors)).toContain(field);
    }
    const made = await Promise.all([
      priv("/catalog/products", "POST", { type: "activity", title: "Kayak", capacity: 6, accommodation: null, package: null }),
      priv("/catalog/products", "POST", { type: "accommodation", title: "Dorm", accommodation: room }),
      priv("/catalog/products", "POST", { type: "package", title: "Week", package: { accommodation_ids: [], groups: [], items: [] } }),
    ]);
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(made[1].body.data).toMatchObject({ type: "accommodation", capacity: 8, accommodation: { rooms: 2, beds_per_room: 4 } });
  });
});

describe("codes, dates, e-mails and parties say the server's rule", () => {
  it("language_code enumerates the ISO 639-1 codes; time_zone says IANA with an example", () => {
    const guest = deref(deref(bodyOf("/api/pub/v2/bookings/add", "post").properties.guests).items);
    const lang = guest.properties.language_code;
    expect(lang.enum).toHaveLength(184);
    expect(lang.enum).toEqual(expect.arrayContaining(["pt", "fr", "it", "nl", "de"]));
    expect(lang.enum).not.toContain("qq");
    expect(schemas().PersonCreate.properties.language_code.enum).toHaveLength(184);
    const zone = bodyOf("/private/settings", "patch").properties.time_zone;
    expect(zone.description).toMatch(/IANA/);
    expect(zone.example).toBe("Europe/Lisbon");
  });

  it("an e-mail's schema refuses a@info as the server does", async () => {
    const email = schemas().PersonCreate.properties.email;
    const pattern = new RegExp(email.pattern ?? email.anyOf?.find((s: S) => s.pattern)?.pattern, "u");
    expect(pattern.test("ana@example.com")).toBe(true);
    expect(pattern.test("a@info")).toBe(false);
    const refused = await priv("/persons", "POST", { email: "a@info", first_name: "Ana" });
    expect(refused.status).toBe(422);
    expect(fieldsIn(refused.body.errors)).toEqual(["email"]);
  });

  it("impossible dates are a 422 naming the field, the same way everywhere", async () => {
    const item = deref(deref(deref(bodyOf("/api/pub/v2/bookings/add", "post").properties.guests).items).properties.package);
    const dates = deref(deref(item.properties.items).items).properties.dates.items;
    expect(dates.anyOf.map((s: S) => s.format ?? "pattern")).toEqual(["date", "pattern"]);
    expect(new RegExp(dates.anyOf[1].pattern, "u").test("0000-00-00 08:00:00")).toBe(false);
    for (const bad of ["0000-00-00", "2026-02-30"]) {
      const person = await priv("/persons", "POST", { email: `d${bad.slice(5, 7)}@example.com`, birth_date: bad });
      expect(person.status, bad).toBe(422);
      expect(fieldsIn(person.body.errors)).toEqual(["birth_date"]);
      const prices = await callJson("/api/pub/v2/packages/prices", {
        key: pub,
        body: { guests: [{ unique_id: "a", gender: "f", package: { id: 101, start_date: "2026-12-05", end_date: "2026-12-12", items: [{ package_item_id: 1, dates: [`${bad} 08:00:00`] }] } }] },
      });
      expect(prices.status, bad).toBe(422);
      expect(fieldsIn(prices.body.errors)).toEqual(["guests.0.package.items.0.dates.0"]);
    }
  });

  it("an inventory change says it needs capacity or blocked, and the server wants one of them", async () => {
    expect(schemas().InventoryPatch.anyOf).toEqual([{ required: ["capacity"] }, { required: ["blocked"] }]);
    const neither = await priv("/catalog/products/302/inventory", "PATCH", { from: "2027-01-04", to: "2027-01-05" });
    expect(neither.status).toBe(422);
    expect(fieldsIn(neither.body.errors)).toEqual(["capacity"]);
  });

  it("persons' sort_by and bookings' status state their values", () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: S) => p.name === name).schema;
    const sort = new RegExp(param("/private/persons", "sort_by").pattern, "u");
    expect(["last_name", "birth_date,desc"].every((v) => sort.test(v))).toBe(true);
    expect(sort.test("email")).toBe(false);
    expect(param("/private/bookings", "status")).toMatchObject({ type: "array", items: { enum: ["confirmed", "cancelled"] } });
  });

  it("guests' and bookings' filters state their ids and date ranges, and the server refuses what they refuse", async () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: S) => p.name === name).schema;
    expect(param("/private/guests", "arrival_location_id")).toMatchObject({ type: "array", items: { type: "integer", minimum: 1 } });
    expect(param("/private/guests", "agreement_id")).toMatchObject({ type: "array", items: { type: "string", format: "uuid" } });
    expect(param("/private/guests", "booking_product_type").items.enum).toContain("activity");
    const created = new RegExp(param("/private/guests", "booking_created_at").pattern, "u");
    expect(["2026-12-05", "2026-12-05..2026-12-31", "..2026-12-31", "2026-12-05T10:00:00Z.."].every((v) => created.test(v))).toBe(true);
    expect(created.test("yesterday")).toBe(false);
    expect(new RegExp(param("/private/guests", "checked_in_at").pattern, "u").test("notnull")).toBe(true);
    expect(new RegExp(param("/private/bookings", "start_date").pattern, "u").test("2026-12-05T10:00:00Z")).toBe(false);
    const sort = new RegExp(param("/private/guests", "sort_by").pattern, "u");
    expect(sort.test("booking_related_data.arrival_date,desc")).toBe(true);
    expect(sort.test("booking_related_dataXarrival_date")).toBe(false);
    expect(new RegExp(param("/private/bookings", "reference").pattern, "u").test("2026-1001")).toBe(true);
    for (const q of ["booking_reference_number=12a", "sort_by=email", "custom_fields=[1]", "arrival_location_id=abc", "agreement_id=abc", "booking_created_at=yesterday", "booking_product_type=boat"]) {
      const res = await priv(`/guests?${q}`);
      expect(res.status, q).toBe(422);
      expect([...new Set(fieldsIn(res.body.errors))], q).toEqual([q.split("=")[0]]);
    }
  });

  it("the accommodations' party rule is in the description, and an empty party is the 422 it names", async () => {
    const op = doc.paths["/api/pub/v2/packages/{id}/accommodations"].get;
    const males = op.parameters.find((p: S) => p.name === "males");
    expect(males.schema.example ?? males.example).toBeGreaterThan(0);
    expect(males.description ?? males.schema.description).toMatch(/at least 1/);
    expect(op.description).toMatch(/all three 0 is a 422 at males/);
    const empty = await callJson("/api/pub/v2/packages/101/accommodations?start_date=2026-12-05&duration=7&males=0&females=0&couples=0", { key: pub });
    expect(empty.status).toBe(422);
    expect(fieldsIn(empty.body.errors)).toEqual(["males"]);
  });
});
