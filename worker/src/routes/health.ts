import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../contract/problem";
import { createRouter } from "./router";

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

/** GET /healthz: `{"status":"ok"}` without touching any binding. */
export const healthRoutes = createRouter().openapi(route, (c) => {
  c.header("Cache-Control", "no-store");
  return c.json({ status: "ok" as const }, 200);
});
