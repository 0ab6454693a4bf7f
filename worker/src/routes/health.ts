import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../contract/problem";
import { createRouter } from "./router";
import { d1Answers } from "../db/ready";
import { SHARD_BINDINGS } from "../db/shards";

const Health = z.object({ status: z.literal("ok") }).openapi("Health");

const route = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  tags: ["Operations"],
  summary: "Liveness check",
  description: "Answers as soon as the Worker runs. No authentication and no database read: a load balancer's probe and the benchmark's baseline.",
  security: [],
  responses: {
    200: { description: "The Worker is up.", content: { "application/json": { schema: Health } } },
    403: problemResponse("Plain HTTP to a host other than loopback (https_required)."),
  },
});

const Check = z.enum(["ok", "missing", "failing"]);
const Readiness = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.record(z.string(), Check).openapi({
      description:
        "Each piece by name: `d1` (the database answers, its migrations applied), `d1_shard_1` and on (each further shard's database, the same, and its id range set: `npm run shard -- init`), each Durable Object namespace (`rate_limiter`, `cart_timer`, `cart_desk`, " +
        "`webhook_delivery`, `email_delivery`: an object answers), `key_signing_secret` (set; its value is never shown), `email` (the send_email binding).",
    }),
  })
  .openapi("Readiness");

const ready = createRoute({
  method: "get",
  path: "/readyz",
  operationId: "getReadiness",
  tags: ["Operations"],
  summary: "Readiness check",
  description:
    "Reads D1, reaches each Durable Object namespace and checks that the signing secret is set: 200 when every piece answers, 503 naming each one " +
    "that is missing or failing (a deployment whose database_id, binding or secret is wrong says so here before its first guest does). No authentication; no secret in the answer.",
  security: [],
  responses: {
    200: { description: "Every piece answers.", content: { "application/json": { schema: Readiness } } },
    403: problemResponse("Plain HTTP to a host other than loopback (https_required)."),
    503: { description: "Some piece is missing or failing; `checks` names it.", content: { "application/json": { schema: Readiness } } },
  },
});

/** A Durable Object namespace answers: one object of it takes a call (nothing stored). */
async function objectAnswers(ns: DurableObjectNamespace<{ ready(): "ok" } & Rpc.DurableObjectBranded> | undefined): Promise<z.infer<typeof Check>> {
  if (!ns) return "missing";
  try {
    return (await ns.get(ns.idFromName("readiness")).ready()) === "ok" ? "ok" : "failing";
  } catch {
    return "failing";
  }
}

/** GET /healthz: `{"status":"ok"}` without touching any binding. */
export const healthRoutes = createRouter()
  .openapi(route, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ok" as const }, 200);
  })
  .openapi(ready, async (c) => {
    const env = c.env as Partial<Env>;
    // Every shard's database (docs/design.md "Shards"): DB is `d1`, DB_SHARD_n is `d1_shard_n`.
    const d1Checks = Promise.all(
      SHARD_BINDINGS.map((name, shard) => {
        const db = env[name];
        return db ? d1Answers(db, shard).then((ok) => (ok ? "ok" : "failing") as z.infer<typeof Check>) : Promise.resolve("missing" as const);
      }),
    );
    const [d1s, rateLimiter, cartTimer, cartDesk, webhookDelivery, emailDelivery] = await Promise.all([
      d1Checks,
      objectAnswers(env.RATE_LIMITER as never),
      objectAnswers(env.CART_TIMER as never),
      objectAnswers(env.CART_DESK as never),
      objectAnswers(env.WEBHOOK_DELIVERY as never),
      objectAnswers(env.EMAIL_DELIVERY as never),
    ]);
    const checks = {
      d1: d1s[0],
      ...Object.fromEntries(d1s.slice(1).map((check, i) => [`d1_shard_${i + 1}`, check])),
      rate_limiter: rateLimiter,
      cart_timer: cartTimer,
      cart_desk: cartDesk,
      webhook_delivery: webhookDelivery,
      email_delivery: emailDelivery,
      key_signing_secret: env.KEY_SIGNING_SECRET ? ("ok" as const) : ("missing" as const),
      email: env.EMAIL ? ("ok" as const) : ("missing" as const),
    };
    const allOk = Object.values(checks).every((v) => v === "ok");
    c.header("Cache-Control", "no-store");
    if (allOk) return c.json({ status: "ready" as const, checks }, 200);
    return c.json({ status: "not_ready" as const, checks }, 503);
  });
