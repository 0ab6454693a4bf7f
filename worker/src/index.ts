import type { Context } from "hono";
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
import { executionCtxOf } from "./lib/wait-until";

export { RateLimiter } from "./durable/rate-limiter";
export { CartTimer } from "./durable/cart-timer";
export { CartDesk } from "./durable/cart-desk";
export { WebhookDelivery } from "./durable/webhook-delivery";
export { EmailDelivery } from "./durable/email-delivery";

type PublicApi = Awaited<ReturnType<typeof loadPublicApi>>;
type App = ReturnType<typeof createApp>;

// The private API behind a private-scope key, and the back office: their modules, and the schemas
// of their contracts, are evaluated on their first request, not at the isolate's startup
// (routes/lazy.ts; docs/benchmarks.md "What loads lazily"). The key is checked inside, where the
// private routes' own declarations (middleware/auth.ts keyCheck) are seen.
const loadPrivateApi = () => import("./routes/private").then(({ privateApi }) => privateApi());
const privateDoor = lazyRouter("/private", () => loadPrivateApi().then((api) => createRouter().use("*", apiKeyAuth({ scope: "private" })).route("/", api) as never));
const adminDoor = lazyRouter("/admin", () => import("./routes/admin").then(({ adminRoutes }) => adminRoutes() as never));

/**
 * The Worker's app. The public API v2's modules are evaluated on its first request too
 * (routes/public-lazy.ts), but its routes are mounted in the app itself, not behind a door of
 * their own: its requests are the most frequent, and a second dispatch on each would cost them
 * about a tenth of their CPU (docs/benchmarks.md). So the app is built twice: at startup without
 * them (`publicRoutes` absent: the first request to /api/pub/v2 loads them, builds the whole app and
 * is served by it, before any middleware of this one runs), and then with them, once, which serves
 * every request after.
 */
function buildApp(publicRoutes?: PublicApi): { app: App; privateAt: number } {
  const app = createApp(publicRoutes ? undefined : { path: "/api/pub/v2/*", handler: async (c) => (await withPublicApi()).fetch(c.req.raw, c.env, executionCtxOf(c)) });
  // The request's D1 session's bookmark on its answer (the session is opened by the door that finds the shard).
  app.use("*", sessionBookmarks());
  // The business's shard, for the doors that name it by its slug (the APIs' door does so by the key).
  app.use("*", shardDoor());

  app.route("/", healthRoutes);
  app.route("/", docsRoutes());

  // The public API v2 behind a public-scope key. Each route says next to its handler when its key
  // is checked, where that is not the default (middleware/auth.ts keyCheck).
  if (publicRoutes) {
    app.use("/api/pub/v2/*", apiKeyAuth({ scope: "public" }));
    app.route("/api/pub/v2", publicRoutes);
  }
  const privateAt = app.openAPIRegistry.definitions.length;
  app.all("/private/*", privateDoor);
  // Stripe's signed events, per business (no API key: the signature is the authentication).
  app.route("/", stripeWebhookRoutes);
  // Plain Hono routers: OpenAPIHono.route() merges only OpenAPIHono registries, so the widget
  // proxy and the pages stay out of /openapi.json.
  app.route("/", widgetRoutes());
  app.route("/", schemaRoutes());
  app.route("/", pageRoutes());
  // The back office (routes/admin): HTML pages and forms, its own error pages.
  app.all("/admin/*", adminDoor);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An API key made with `npm run keys -- create`: scope `public` for /api/pub/v2, scope `private` for /private.",
  });
  app.get("/openapi.json", async (c) => {
    const openApiDocument = await describe();
    const servers = [{ url: new URL(c.req.url).origin, description: "The server that served this document." }];
    return c.json({ ...openApiDocument, servers });
  });
  app.notFound(notFoundOr405);
  return { app, privateAt };
}

/** The app of the isolate's start; then, once the public API's modules are loaded, the whole app (a plain value, never a promise). */
const atStart = buildApp().app;
let whole: ReturnType<typeof buildApp> | undefined;
async function withPublicApi(): Promise<App> {
  if (!whole) {
    const routes = await loadPublicApi();
    whole ??= buildApp(routes);
  }
  return whole.app;
}
const app = {
  fetch: (request: Request, env: Env, ctx?: ExecutionContext) => (whole?.app ?? atStart).fetch(request, env, ctx),
};

// The description is generated once per isolate, on its first request: the routes do not change
// while the isolate runs, and generating 130 kB of JSON from the schemas on every request is
// work done again for nothing. Only `servers` depends on the request (the origin that asked).
// It is the whole app's definitions with the private API's where the private API is mounted (its
// modules are loaded for it, as on its first request), so its paths keep their order.
type Description = ReturnType<App["getOpenAPI31Document"]>;
let openApiDocument: Description | undefined;
/** A router that carries the given definitions into the one it is mounted on, and no routes. */
const definitionsOnly = (definitions: App["openAPIRegistry"]["definitions"]) =>
  Object.assign(createRouter(), { openAPIRegistry: { definitions } as App["openAPIRegistry"] });
const describe = async (): Promise<Description> => {
  if (openApiDocument) return openApiDocument;
  await withPublicApi();
  const privateRoutes = await loadPrivateApi();
  const { app: full, privateAt } = whole!;
  const all = full.openAPIRegistry.definitions;
  const doc = createRouter()
    .route("/", definitionsOnly(all.slice(0, privateAt)))
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

// A documented path asked with a method it does not have is a 405 naming the ones it has (HTTP,
// and the `method_not_allowed` code of the description's enum), not a 404: the matcher is made
// once per isolate from the description's own paths, so the two cannot drift apart.
let documented: { pattern: RegExp; methods: string[] }[] | undefined;
async function notFoundOr405(c: Context) {
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
}

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
