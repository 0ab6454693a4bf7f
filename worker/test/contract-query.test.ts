import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createKey } from "./helpers";
import { loadDocument } from "./fuzz-harness";

// Issue 29: a client generated from /openapi.json must send the query parameters the server takes.
// `page`, `limit` and the boolean filters were bare strings; now they say integer/boolean with the
// server's bounds, and the server takes exactly what they say (and refuses what they refuse).

type Param = { name: string; in: string; schema?: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

const PAGED = [
  ["/private/persons", "get"],
  ["/private/guests", "get"],
  ["/private/bookings", "get"],
  ["/private/emails", "get"],
  ["/private/audit", "get"],
  ["/private/webhooks/{webhook_id}/deliveries", "get"],
] as const;

function param(doc: Doc, path: string, method: string, name: string): Param | undefined {
  return doc.paths[path]?.[method]?.parameters?.find((p) => p.in === "query" && p.name === name);
}

describe("typed query parameters in /openapi.json", () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = (await loadDocument()) as unknown as Doc;
  });

  it.each(PAGED)("%s %s: page and limit are integers with the server's bounds", (path, method) => {
    expect(Object.keys(doc.paths)).toContain(path);
    expect(param(doc, path, method, "page")?.schema).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(param(doc, path, method, "limit")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 10 });
  });

  it("boolean filters are typed boolean", () => {
    for (const [path, name] of [["/private/persons", "is_guest"], ["/private/persons", "is_booker"], ["/private/guests", "is_odd_arrival"], ["/private/guests", "is_odd_departure"]] as const) {
      expect(param(doc, path, "get", name)?.schema, `${path} ${name}`).toMatchObject({ type: "boolean" });
    }
  });
});

describe("the server takes what the description says", () => {
  let key: string;
  beforeAll(async () => {
    key = await createKey("private");
  });

  it("page and limit: the documented bounds are accepted, one past them is a 422 naming the field", async () => {
    for (const path of ["/persons", "/guests", "/bookings", "/emails", "/audit"]) {
      expect((await callJson(`/private${path}?page=1&limit=100`, { key })).status, path).toBe(200);
      expect((await callJson(`/private${path}?limit=1`, { key })).status, path).toBe(200);
      const over = await callJson(`/private${path}?limit=101`, { key });
      expect(over.status, path).toBe(422);
      expect(JSON.stringify(over.body)).toContain("limit");
      const zero = await callJson(`/private${path}?page=0`, { key });
      expect(zero.status, path).toBe(422);
      expect(JSON.stringify(zero.body)).toContain("page");
    }
  });

  it("boolean filters take true and false and refuse anything else", async () => {
    expect((await callJson("/private/persons?is_guest=true", { key })).status).toBe(200);
    expect((await callJson("/private/persons?is_guest=false", { key })).status).toBe(200);
    expect((await callJson("/private/guests?is_odd_arrival=true", { key })).status).toBe(200);
    expect((await callJson("/private/persons?is_guest=maybe", { key })).status).toBe(422);
  });
});

describe("fixed sets are enumerated", () => {
  let doc: Doc;
  let key: string;
  beforeAll(async () => {
    doc = (await loadDocument()) as unknown as Doc;
    key = await createKey("private");
  });

  it("audit entity/action and e-mail status/kind are arrays of their set; delivery status is one of its set", () => {
    for (const [path, name, some] of [["/private/audit", "entity", "product"], ["/private/audit", "action", "created"], ["/private/emails", "status", "sent"], ["/private/emails", "kind", "booking_confirmation"]] as const) {
      const schema = param(doc, path, "get", name)?.schema as { type?: string; items?: { enum?: string[] } } | undefined;
      expect(schema?.type, `${path} ${name}`).toBe("array");
      expect(schema?.items?.enum, `${path} ${name}`).toContain(some);
    }
    expect(param(doc, "/private/webhooks/{webhook_id}/deliveries", "get", "status")?.schema).toMatchObject({ enum: ["pending", "delivered", "failed", "gave_up"] });
  });

  it("every enumerated audit entity and action is taken, repeated or comma-separated; another is a 422", async () => {
    const schema = (name: string) => (param(doc, "/private/audit", "get", name)?.schema as { items: { enum: string[] } }).items.enum;
    for (const name of ["entity", "action"]) {
      const values = schema(name);
      expect((await callJson(`/private/audit?${values.map((v) => `${name}=${v}`).join("&")}`, { key })).status, name).toBe(200);
      expect((await callJson(`/private/audit?${name}=${values.join(",")}`, { key })).status, name).toBe(200);
      expect((await callJson(`/private/audit?${name}=nonsense`, { key })).status, name).toBe(422);
    }
    const emails = param(doc, "/private/emails", "get", "status")?.schema as { items: { enum: string[] } };
    expect((await callJson(`/private/emails?status=${emails.items.enum.join(",")}`, { key })).status).toBe(200);
  });
});

describe("person and guest filters say their form", () => {
  let doc: Doc;
  let key: string;
  beforeAll(async () => {
    doc = (await loadDocument()) as unknown as Doc;
    key = await createKey("private");
  });

  it("persons: gender is enumerated, birth_date and the two-letter codes carry the pattern the server checks", async () => {
    expect(param(doc, "/private/persons", "get", "gender")?.schema).toMatchObject({ enum: ["male", "female", "nonbinary"] });
    const birth = new RegExp(String(param(doc, "/private/persons", "get", "birth_date")?.schema?.pattern));
    for (const v of ["1990-01-01", "1990-01-01..2000-12-31", "1990-01-01..", "..2000-12-31"]) {
      expect(birth.test(v), v).toBe(true);
      expect((await callJson(`/private/persons?birth_date=${v}`, { key })).status, v).toBe(200);
    }
    for (const v of ["1990", "..", "yesterday"]) {
      expect(birth.test(v), v).toBe(false);
      expect((await callJson(`/private/persons?birth_date=${v}`, { key })).status, v).toBe(422);
    }
    for (const name of ["language_code", "nationality_code", "country_code", "phone_country_code"]) {
      const pattern = new RegExp(String(param(doc, "/private/persons", "get", name)?.schema?.pattern));
      expect(pattern.test("de") && pattern.test("DE") && !pattern.test("deu"), name).toBe(true);
      expect((await callJson(`/private/persons?${name}=DE`, { key })).status, name).toBe(200);
      expect((await callJson(`/private/persons?${name}=deu`, { key })).status, name).toBe(422);
    }
  });

  it("guests: expand is an array of what the server expands", async () => {
    for (const path of ["/private/guests", "/private/bookings/{booking_id}/guests/{guest_id}"]) {
      const values = (param(doc, path, "get", "expand")?.schema as { items?: { enum?: string[] } } | undefined)?.items?.enum;
      expect(values?.length, path).toBeGreaterThan(0);
      if (path === "/private/guests") expect((await callJson(`/private/guests?expand=${values!.join(",")}`, { key })).status).toBe(200);
    }
    expect((await callJson("/private/guests?expand=nonsense", { key })).status).toBe(422);
  });
});

describe("list ids in a Person body", () => {
  it("diet_id, level_id, guest_group_id state minimum 1 and say a digit string is taken; 0 is refused, \"1\" is not", async () => {
    const doc = (await loadDocument()) as unknown as { components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> } };
    const text = JSON.stringify(doc.components.schemas);
    const bodies = Object.values(doc.components.schemas).filter((s) => s.properties?.diet_id && s.properties?.level_id && s.properties?.guest_group_id);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) for (const name of ["diet_id", "level_id", "guest_group_id"]) {
      const prop = JSON.stringify(body.properties![name]);
      expect(prop, name).toContain('"minimum":1');
    }
    expect(text).toContain("string of digits");
    const key = await createKey("private");
    const zero = await callJson("/private/persons", { key, method: "POST", body: { first_name: "Zed", email: `zero-${Date.now()}@example.com`, diet_id: 0 } });
    expect(zero.status).toBe(422);
    expect(JSON.stringify(zero.body)).toContain("diet_id");
  });
});
