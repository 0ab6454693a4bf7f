/**
 * "The same whichever door asks" (issue 26): a change made in the back office has the same
 * after-commit effects as the same change through the private API. A price saved in the back
 * office's Prices screen reaches the integrator's webhook receiver at once (manage/ tells the
 * delivery object once the batch committed), not when the delivery's periodic sweep comes round
 * minutes later; and it leaves the same audit entry and the same event as PATCH
 * /private/catalog/products/{id}.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { deliveryStub } from "../src/db/outbox";
import { createStaff, signedIn, type Browser } from "./admin-fixtures";
import { adminBusiness, type AdminBusiness } from "./manage-fixtures";

const receiver = `http://127.0.0.1:${inject("webhookReceiverPort")}`;
const received = async (hookName: string) =>
  ((await (await fetch(`${receiver}/received/${hookName}`)).json()) as { status: number; body: string }[]).map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });
const alarmOf = (businessId: number) => runInDurableObject(deliveryStub(env, businessId), (_, state) => state.storage.getAlarm());

let b: AdminBusiness;
let owner: Browser;
let hookName: string;
const product = { type: "activity", title: "Sunset paddle", duration: { unit: "hour", default: 2 }, capacity: 8, rates: [{ amount: 30 }] };

beforeAll(async () => {
  b = await adminBusiness();
  owner = await signedIn(b.slug, (await createStaff(b.businessId, "owner")).email, "198.51.100.61");
  hookName = crypto.randomUUID();
  const sub = await b.admin("/webhooks", { method: "POST", body: { url: `${receiver}/hooks/${hookName}`, events: ["ProductUpdated"] } });
  expect(sub.status).toBe(201);
});

/** The grid's fields as the Prices page draws them, with `edits` on top. */
async function pricesForm(edits: Record<string, string>): Promise<Record<string, string>> {
  const html = await (await owner.get(`/admin/${b.slug}/prices`)).text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input id="(rate_\d+_\w+)" name="\1" type="text"[^>]*?value="([^"]*)"/g)) fields[m[1]] = m[2];
  for (const m of html.matchAll(/<select id="(charge_\d+)"[\s\S]*?<option value="([^"]+)" selected=""/g)) fields[m[1]] = m[2];
  return { ...fields, ...edits };
}

/** The product's newest audit entry, without what names the door and the moment, and with the product's own id and ref as placeholders. */
async function lastAudit(id: number, ref: string) {
  const [entry] = (await b.admin(`/audit?entity=product&entity_id=${id}`)).body.data;
  const { id: _id, at: _at, actor, entity_id, ...rest } = entry;
  expect(entity_id).toBe(String(id));
  const text = JSON.stringify(rest).replaceAll(`"${ref}"`, '"<ref>"').replaceAll(`${ref}, id ${id})`, "<ref>, id <id>)").replaceAll(`"id":${id},`, '"id":"<id>",');
  return { actor: actor.kind as string, rest: JSON.parse(text) as Record<string, unknown> };
}

describe("a price changed in the back office", () => {
  it("is delivered as a webhook at once, with the same audit entry and event as through the private API", async () => {
    const viaOffice = (await b.admin("/catalog/products", { method: "POST", body: product })).body.data.id as number;
    const viaApi = (await b.admin("/catalog/products", { method: "POST", body: product })).body.data.id as number;
    // The subscription's own wake-up has run once the next alarm is the periodic sweep, minutes
    // ahead: from here on only the change's own kick delivers within the wait below.
    await vi.waitFor(async () => expect((await alarmOf(b.businessId)) ?? 0).toBeGreaterThan(Date.now() + 60_000), { timeout: 5000, interval: 20 });
    const before = (await received(hookName)).length;

    const saved = await owner.post(`/admin/${b.slug}/prices`, await pricesForm({ [`rate_${viaOffice}_base`]: "35" }));
    expect(saved.status, await saved.clone().text()).toBe(303);
    const updated = (id: number) => async () => (await received(hookName)).slice(before).filter((e) => e.data.product_id === id);
    await vi.waitFor(async () => expect(await updated(viaOffice)()).toHaveLength(1), { timeout: 5000, interval: 50 });

    const patched = await b.admin(`/catalog/products/${viaApi}`, { method: "PATCH", body: { rates: [{ amount: 35 }] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await vi.waitFor(async () => expect(await updated(viaApi)()).toHaveLength(1), { timeout: 5000, interval: 50 });

    // The same event, each naming its own product.
    const [office] = await updated(viaOffice)();
    const [api] = await updated(viaApi)();
    expect(office.event).toBe("ProductUpdated");
    expect({ ...office, data: { ...office.data, product_id: viaApi, ref: api.data.ref } }).toEqual(api);
    // The same audit entry, each naming the door it came through.
    const [fromOffice, fromApi] = [await lastAudit(viaOffice, String(office.data.ref)), await lastAudit(viaApi, String(api.data.ref))];
    expect(fromOffice.actor).toBe("staff");
    expect(fromApi.actor).toBe("key");
    expect(fromOffice.rest).toEqual(fromApi.rest);
    expect(fromOffice.rest).toMatchObject({ action: "updated", entity: "product", summary: 'product "Sunset paddle" (<ref>, id <id>) updated' });
    expect((fromOffice.rest.after as { rates: { amount: number }[] }).rates.map((r) => r.amount)).toEqual([35]);
  });
});
