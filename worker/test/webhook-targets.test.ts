import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { BASE, createKey } from "./helpers";

// As deployed (wrangler.toml: ALLOW_LOOPBACK_WEBHOOKS = "false"; the test config turns it on for
// the delivery tests' loopback receiver): disguised loopback and non-public targets are refused.
const deployed = { ...env, ALLOW_LOOPBACK_WEBHOOKS: "false" };

async function subscribe(url: string) {
  const key = await createKey("private");
  const ctx = createExecutionContext();
  const body = JSON.stringify({ url, events: ["BookingCreated"] });
  const res = await worker.fetch(
    new Request(`${BASE}/private/webhooks`, { method: "POST", body, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": String(body.length) } }),
    deployed,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /private/webhooks with loopback off", () => {
  it.each([
    "https://localhost./", "https://foo.localhost./", "https://localhost%2e/", "https://[::127.0.0.1]/", "https://[::a9fe:a9fe]/", "https://[64:ff9b::a9fe:a9fe]/",
    "https://[2002:a9fe:a9fe::]/", "https://[fec0::1]/", "https://[100::1]/", "https://127.0.0.1.nip.io/",
  ])("refuses %s with a 422 on url, and stores nothing", async (url) => {
    const res = await subscribe(url);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(["url"]);
  });

  it("accepts a public https target", async () => {
    const res = await subscribe("https://hooks.example.com/in");
    expect(res.status).toBe(201);
    expect(res.body.url ?? res.body.data?.url).toBe("https://hooks.example.com/in");
  });
});
