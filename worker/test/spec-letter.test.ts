import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey } from "./helpers";
import { smallPackage } from "./carts-fixtures";

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
