import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { deliveryStub } from "../src/db/outbox";
import { timerStub } from "./carts-fixtures";
import { BASE, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";

// The test clock (X-Test-Now on a request, setTestNow on a Durable Object) exists for the tests
// only: with ALLOW_TEST_CLOCK off, as in production (wrangler.toml does not set it), a client that
// sends X-Test-Now gets the wall clock, and the objects refuse to move theirs.
const production = { ...env, ALLOW_TEST_CLOCK: undefined } as unknown as typeof env;
const FAR = "2031-07-04T12:00:00.000Z";
/** runInDurableObject, reaching the object's private members (its env, its clock offset). */
const inObject = runInDurableObject as unknown as (stub: unknown, fn: (instance: any, state: DurableObjectState) => Promise<void>) => Promise<void>;
const today = () => new Date().toISOString().slice(0, 10);

/** The Worker's fetch handler with the given env (fetchWorker always uses the pool's). */
async function fetchWith(workerEnv: typeof env, url: string, headers: Record<string, string>) {
  const ctx = createExecutionContext();
  try {
    return await worker.fetch(new Request(url, { headers }), workerEnv, ctx);
  } finally {
    await waitOnExecutionContext(ctx);
  }
}

describe("the test clock is off unless ALLOW_TEST_CLOCK is 1", () => {
  const bootstrap = `${BASE}/widget/v1/demo/bootstrap?product=101&for=test-clock`;
  const headers = { Origin: "http://localhost:8850", "X-Test-Now": FAR };

  it("moves a request's clock in tests (the control)", async () => {
    const res = await fetchWorker(bootstrap, { headers });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { today: string }).today).toBe(FAR.slice(0, 10));
  });

  it("ignores X-Test-Now in production: the request runs on the wall clock", async () => {
    const before = today();
    const res = await fetchWith(production, `${bootstrap}&n=2`, headers);
    expect(res.status).toBe(200);
    const answered = ((await res.json()) as { today: string }).today;
    expect([before, today()]).toContain(answered);
  });

  it("refuses setTestNow on the cart timer and the delivery objects in production, and sweeps on the wall clock", async () => {
    await inObject(timerStub(DEMO_BUSINESS_ID), async (timer) => {
      const own = timer.env;
      timer.env = production;
      try {
        await expect(timer.setTestNow(DEMO_BUSINESS_ID, FAR)).rejects.toThrow(/test clock is disabled/);
        // A request's clock far ahead leaves no offset behind either.
        expect(timer.offsetOf(Date.parse(FAR))).toBe(0);
      } finally {
        timer.env = own;
      }
    });
    await inObject(deliveryStub(env, DEMO_BUSINESS_ID), async (delivery, state) => {
      const own = delivery.env;
      // An offset left in storage (by a test build, say) is not read by a production one.
      await state.storage.put("clock_offset_ms", 86_400_000);
      delivery.env = production;
      try {
        await expect(delivery.setTestNow(FAR)).rejects.toThrow(/test clock is disabled/);
        expect(await delivery.clockOffset()).toBe(0);
      } finally {
        delivery.env = own;
        await state.storage.delete("clock_offset_ms");
      }
    });
  });
});
