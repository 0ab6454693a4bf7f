import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerRead } from "../src/db/catalog";
import { allocate } from "./catalog-fixtures";
import { cartBusiness, setCapacity, smallPackage } from "./carts-fixtures";
import { callJson } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

// A process keeps the inventory ledgers it read and asks D1 only whether the business's ledger
// version moved (migration 0100). Nothing may ever be answered from a ledger that a write, or
// the passing of a hold's expiry, has made stale.

const versionOf = async (businessId: number) =>
  (await env.DB.prepare("SELECT version FROM ledger_versions WHERE business_id = ?").bind(businessId).first<{ version: number }>())?.version;

async function read(businessId: number, productId: number, from: string, to: string, now: string) {
  const r = ledgerRead(env.DB, businessId, [productId], from, to, new Date(now));
  const [result] = await env.DB.batch([r.statement]);
  return { sent: (result.results[0] as { ledger: string | null }).ledger, text: r.text(result) };
}

describe("the ledger version", () => {
  it("moves with every write to inventory or allocations, whatever wrote it", async () => {
    const { businessId } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const seen = new Set([await versionOf(businessId)]);
    const moved = async () => {
      const v = await versionOf(businessId);
      expect(v, "a new version").toBeDefined();
      expect(seen.has(v), "a version not seen before").toBe(false);
      expect(Number.isSafeInteger(v)).toBe(true);
      seen.add(v);
    };
    await setCapacity(businessId, pkg, "2027-03-01", 4);
    await moved();
    await env.DB.prepare("UPDATE inventory SET blocked = 1 WHERE product_id = ?").bind(pkg).run();
    await moved();
    await env.DB.prepare("DELETE FROM inventory WHERE product_id = ?").bind(pkg).run();
    await moved();
    await allocate({ business: businessId, product: pkg, date: "2027-03-01", qty: 1 });
    await moved();
    await env.DB.prepare("UPDATE allocations SET released_at = '2026-01-01T00:00:00.000Z' WHERE product_id = ?").bind(pkg).run();
    await moved();
    await env.DB.prepare("DELETE FROM allocations WHERE product_id = ?").bind(pkg).run();
    await moved();
  });

  it("a ledger asked again while nothing was written is confirmed by D1, not sent again; a write sends it anew", async () => {
    const { businessId } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    await setCapacity(businessId, pkg, "2027-04-02", 3);
    const now = "2027-01-10T10:00:00.000Z";
    const first = await read(businessId, pkg, "2027-04-01", "2027-04-03", now);
    expect(first.sent).not.toBeNull();
    expect(JSON.parse(first.text)).toEqual([[pkg, "2027-04-02", "", 3, 0, null]]);
    const again = await read(businessId, pkg, "2027-04-01", "2027-04-03", now);
    expect(again.sent, "D1 leaves the ledger out").toBeNull();
    expect(again.text).toBe(first.text);
    // Another business's write does not touch this one's version.
    const other = await cartBusiness();
    await setCapacity(other.businessId, await smallPackage(other.businessId, 1), "2027-04-02", 1);
    expect((await read(businessId, pkg, "2027-04-01", "2027-04-03", now)).sent).toBeNull();
    // A write through raw SQL: the next read has it.
    await setCapacity(businessId, pkg, "2027-04-02", 2);
    const after = await read(businessId, pkg, "2027-04-01", "2027-04-03", now);
    expect(after.sent).not.toBeNull();
    expect(JSON.parse(after.text)).toEqual([[pkg, "2027-04-02", "", 2, 0, null]]);
  });
});

describe("calendars from kept ledgers", () => {
  it("a hold stops counting when it expires, with no write, and counts again for a request timed before its expiry", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const date = "2027-05-03";
    await allocate({ business: businessId, product: pkg, date, qty: 2, expiresAt: "2027-01-10T10:15:00.000Z" });
    const available = async (now: string) =>
      (await callJson(`/api/pub/v2/products/${pkg}/availabilities?start_date=${date}&end_date=${date}`, { key, now })).body[date].available;
    expect(await available("2027-01-10T10:00:00.000Z")).toBe(3);
    expect(await available("2027-01-10T10:14:59.000Z")).toBe(3);
    expect(await available("2027-01-10T10:15:00.000Z")).toBe(5); // expires_at is the first instant it no longer holds
    expect(await available("2027-01-10T10:20:00.000Z")).toBe(5);
    expect(await available("2027-01-10T10:05:00.000Z")).toBe(3); // an earlier clock: the hold is live again
  });

  it("every product's calendar and a single calendar, each asked again, see every write at once", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const date = "2027-06-07";
    const now = "2027-01-10T10:00:00.000Z";
    const all = async () => (await callJson(`/api/pub/v2/products/availabilities?start_date=${date}&end_date=${date}`, { key, now })).body[pkg][date].available;
    const one = async () => (await callJson(`/api/pub/v2/products/${pkg}/availabilities?start_date=${date}&end_date=${date}`, { key, now })).body[date].available;
    expect([await all(), await one(), await all(), await one()]).toEqual([5, 5, 5, 5]);
    await allocate({ business: businessId, product: pkg, date, qty: 1, booking: `b-${crypto.randomUUID()}` });
    expect([await all(), await one()]).toEqual([4, 4]);
    await setCapacity(businessId, pkg, date, 9);
    expect([await all(), await one()]).toEqual([8, 8]);
    await env.DB.prepare("UPDATE allocations SET released_at = ? WHERE product_id = ?").bind(now, pkg).run();
    expect([await all(), await one()]).toEqual([9, 9]);
  });
});
