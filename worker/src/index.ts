import { createApp } from "./app";
import { notFound, problem } from "./lib/problem";
import { ApiError } from "./lib/errors";
import { apiKeyAuth } from "./middleware/auth";
import { docsRoutes } from "./routes/docs";
import { healthRoutes } from "./routes/health";
import { loadPublicApi } from "./routes/public-lazy";
import { pageRoutes } from "./routes/pages";
import { widgetRoutes } from "./routes/widget";
import { schemaRoutes } from "./routes/schemas";
import { lazyRouter } from "./routes/lazy";
import { createRouter } from "./routes/router";
import { stripeWebhookRoutes } from "./routes/stripe-webhook";
import { runMaintenance } from "./db/maintenance";
import { shardDoor } from "./middleware/shard";
import { sessionBookmarks } from "./middleware/session";

export { RateLimiter } from "./durable/rate-limiter";
export { CartTimer } from "./durable/cart-timer";
export { CartDesk } from "./durable/cart-desk";
export { WebhookDelivery } from "./durable/webhook-delivery";
export { EmailDelivery } from "./durable/email-delivery";

const app = createApp();
// The request's D1 session's bookmark on its answer (the session is opened by the door that finds the shard).
app.use("*", sessionBookmarks());
// The business's shard, for the doors that name it by its slug (the APIs' door does so by the key).
app.use("*", shardDoor());

app.route("/", healthRoutes);
app.route("/", docsRoutes());

// The public API v2 behind a public-scope key, and the private API behind a private-scope key.
// Each route says next to its handler when its key is checked, where that is not the default
// (middleware/auth.ts keyCheck), so each key is checked inside its API's router, where those
// declarations are seen. The modules of both, and the schemas of their contracts (most of the
// work of a startup), are evaluated on their first request, not at the isolate's startup
// (routes/lazy.ts; docs/benchmarks.md "What loads lazily").
const publicAt = app.openAPIRegistry.definitions.length;
app.all(
  "/api/pub/v2/*",
  lazyRouter("/api/pub/v2", () => loadPublicApi().then((api) => createRouter().use("*", apiKeyAuth({ scope: "public" })).route("/", api) as never)),
);
const privateAt = app.openAPIRegistry.definitions.length;
const loadPrivateApi = () => import("./routes/private").then(({ privateApi }) => privateApi());
app.all(
  "/private/*",
  lazyRouter("/private", () => loadPrivateApi().then((api) => createRouter().use("*", apiKeyAuth({ scope: "private" })).route("/", api) as never)),
);
// Stripe's signed events, per business (no API key: the signature is the authentication).
app.route("/", stripeWebhookRoutes);
// Plain Hono routers: OpenAPIHono.route() merges only OpenAPIHono registries, so the widget
// proxy and the pages stay out of /openapi.json.
app.route("/", widgetRoutes());
app.route("/", schemaRoutes());
app.route("/", pageRoutes());
// The back office (routes/admin): HTML pages and forms, its own error pages. Its modules are
// evaluated on its first request, as the private API's are.
app.all("/admin/*", lazyRouter("/admin", () => import("./routes/admin").then(({ adminRoutes }) => adminRoutes() as never)));

app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
  type: "http",
  scheme: "bearer",
  bearerFormat: "JWT",
  description: "An API key made with `npm run keys -- create`: scope `public` for /api/pub/v2, scope `private` for /private.",
});

// The description is generated once per isolate, on its first request: the routes do not change
// while the isolate runs, and generating 130 kB of JSON from the schemas on every request is
// work done again for nothing. Only `servers` depends on the request (the origin that asked).
// It is the app's own definitions with the private API's where the private API is mounted (its
// modules are loaded for it, as on its first request), so its paths keep their order.
type Description = ReturnType<typeof app.getOpenAPI31Document>;
let openApiDocument: Description | undefined;
/** A router that carries the given definitions into the one it is mounted on, and no routes. */
const definitionsOnly = (definitions: typeof app.openAPIRegistry.definitions) =>
  Object.assign(createRouter(), { openAPIRegistry: { definitions } as typeof app.openAPIRegistry });
const describe = async (): Promise<Description> => {
  if (openApiDocument) return openApiDocument;
  const publicRoutes = await loadPublicApi();
  const privateRoutes = await loadPrivateApi();
  const all = app.openAPIRegistry.definitions;
  const doc = createRouter()
    .route("/", definitionsOnly(all.slice(0, publicAt)))
    .route("/api/pub/v2", publicRoutes)
    .route("/", definitionsOnly(all.slice(publicAt, privateAt)))
    .route("/private", privateRoutes)
    .route("/", definitionsOnly(all.slice(privateAt)));
  return (openApiDocument ??= doc.getOpenAPI31Document({
    openapi: "3.1.0",
    security: [{ bearerAuth: [] }],
    info: {
      title: "Booking platform API",
      version: "2.0.0",
      "x-private-api-version": "1.0.0",
      description:
        "Public API v2 under /api/pub/v2 (catalog, availability, prices, carts; public-scope keys) and the private API " +
        "under /private (persons, guests, bookers, bookings, webhooks, and the business's administration: settings, catalog, audit log; " +
        "private-scope keys), whose interface version is 1.0.0 " +
        "(`x-private-api-version`). Errors are application/problem+json with a stable `code`.",
    },
  }));
};
app.get("/openapi.json", async (c) => {
  const openApiDocument = await describe();
  const servers = [{ url: new URL(c.req.url).origin, description: "The server that served this document." }];
  return c.json({ ...openApiDocument, servers });
});

// A documented path asked with a method it does not have is a 405 naming the ones it has (HTTP,
// and the `method_not_allowed` code of the description's enum), not a 404: the matcher is made
// once per isolate from the description's own paths, so the two cannot drift apart.
let documented: { pattern: RegExp; methods: string[] }[] | undefined;
app.notFound(async (c) => {
  documented ??= Object.entries((await describe()).paths ?? {}).map(([path, ops]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^/}]+\}/g, "[^/]+")}/?$`),
    methods: Object.keys(ops as object).map((m) => m.toUpperCase()),
  }));
  const path = new URL(c.req.url).pathname;
  const allowed = [...new Set(documented.filter((d) => d.pattern.test(path)).flatMap((d) => d.methods))];
  if (allowed.length === 0) return notFound(c);
  if (allowed.includes("GET")) allowed.push("HEAD");
  const res = problem(c, new ApiError(405, "method_not_allowed", `${c.req.method} is not an operation of ${path}; its methods: ${allowed.join(", ")}.`));
  res.headers.set("Allow", allowed.join(", "));
  return res;
});

export { app };
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, env, ctx),
  // The upkeep of wrangler.toml's cron trigger (every 10 minutes): one line of what it did.
  async scheduled(controller: ScheduledController, env: Env) {
    try {
      const now = new Date(controller.scheduledTime);
      const report = await runMaintenance(env, now);
      // The balance-due reminders (issue 31): manage/ sends them (a payment link and its e-mail), after the tidy-up.
      // (made on first use: payment links reach Stripe's rules, which no request of an isolate's start needs)
      const { sendBalanceReminders } = await import("./manage/reminders");
      const reminders = await sendBalanceReminders(env, now, env.PUBLIC_ORIGIN);
      console.log(JSON.stringify({ level: "info", msg: "maintenance", cron: controller.cron, ...report, reminders }));
    } catch (err) {
      // Thrown again so that the run counts as failed; the next run takes up the work.
      console.error(JSON.stringify({ level: "error", msg: "maintenance failed", cron: controller.cron, error: String(err) }));
      throw err;
    }
  },
} satisfies ExportedHandler<Env>;
