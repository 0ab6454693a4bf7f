/**
 * The house's layer rules, checked by dependency-cruiser in `npm test` (suite "house"):
 *
 *   contract/   zod shapes of every request and answer, error codes, event names   imports nothing of ours
 *   lib/        small helpers (errors, time, ids, keys) and the one error path      contract/
 *   domain/     pure rules: pricing, availability, persons, the catalog snapshot    contract/, pure lib/
 *   db/         SQL, the only place that writes it; how a request reads its tenant  domain/, contract/, lib/
 *   carts/      cart operations and checkout (run by the routes)                    db/ and below
 *   manage/     the changes an operator makes (private API, back office, CLIs)      db/ and below
 *   mail/       e-mails composed from D1 for the delivery object                    db/ and below
 *   integrations/  the outside services (e-mail now, payments next)               contract/, domain/, lib/; used by manage/ and durable/ only
 *   durable/    Durable Object classes only                                        carts/, db/ and below
 *   middleware/ the doors' checks: auth, https, idempotency, cors, rate limit      db/ and below
 *   routes/     thin handlers                                                      anything above, never app.ts
 *   app.ts, index.ts   the composition; only index.ts imports app.ts
 *
 * db/request-env.ts holds what a request carries (its tenant and its D1 access): a db/ concern, so lib/ and domain/ never see it.
 *
 * The widget (widget/src), from the bottom up:
 *
 *   api/, strings/   the service's client, the texts and their loading              each other's only; worker/src/contract/
 *   helpers          format, selection, errors, events, cart-store, reveal (pure)    api/, strings/, each other
 *   controllers/     the typed store and one controller per concern                 the above
 *   steps/           the views, one per step, rendering the store                   the above; of controllers/ the store's types only
 *   booking.ts, load-checkout-steps.ts, checkout-steps.ts   the composition and the chunk loaded on demand
 *   booking-widget.component.ts (and its styles), booking-widget.ts   the element on top; only the entry imports it
 *
 * checkout-steps.ts (the steps after the calendar, their controllers) is a chunk fetched on
 * demand: only load-checkout-steps.ts imports it, dynamically, and nothing of the first screen
 * imports what only that chunk needs. Of worker/src the widget imports contract/ and the pure
 * domain/ only. Nothing may form an import cycle. See docs/design.md and docs/widget.md.
 */
// dependency-cruiser hands swc fixed parse options, TypeScript without JSX, so the back office's
// pages (routes/admin/*.tsx, Hono JSX) would not parse. swc's module object is shared with
// dependency-cruiser (one module cache): its file parser reads .tsx files as TSX from here on.
{
  const swc = require("@swc/core");
  const parseFileSync = swc.parseFileSync;
  swc.parseFileSync = (file, options) => parseFileSync(file, String(file).endsWith(".tsx") ? { ...options, tsx: true } : options);
}

const below = (...rooms) => `^worker/src/(${rooms.join("|")})/`;

const W = "^widget/src/";
/** The widget's pure helpers at the root of widget/src. */
const W_HELPERS = `${W}(format|selection|errors|events|cart-store|reveal)\\.ts$`;
/** The composition, the loader and the chunk entry, and the element on top. */
const W_TOP = `${W}(booking|load-checkout-steps|checkout-steps|booking-widget|booking-widget\\.component|booking-widget\\.styles)\\.ts$`;
/** What only the checkout steps' chunk needs (never in widget.js). Their texts are chunks of their own (strings/index.ts imports their type only). */
const W_CHUNK_ONLY = [`${W}checkout-steps\\.ts$`, `${W}controllers/(party|cart)\\.ts$`, `${W}steps/(room|extras|guests|cart|checkout|done|summary|checkout\\.styles)\\.ts$`];
/** What widget.js itself holds: the first screen. */
const W_FIRST_SCREEN = [`${W}(booking|load-checkout-steps|booking-widget|booking-widget\\.component|booking-widget\\.styles)\\.ts$`, `${W}controllers/(store|catalog|countdown)\\.ts$`, `${W}steps/(product|dates|parts)\\.ts$`, W_HELPERS, `${W}(api|strings)/`];

/** lib/ modules that are pure (no framework, no platform): the only ones domain/ may use. */
const PURE_LIB = "^worker/src/lib/(errors|time|ids|memo|keys)\\.ts$";

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No import cycles, anywhere.", from: {}, to: { circular: true } },
    {
      name: "contract-imports-nothing-of-ours",
      severity: "error",
      from: { path: "^worker/src/contract/" },
      to: { path: "^worker/src/", pathNot: "^worker/src/contract/" },
    },
    {
      name: "lib-stays-at-the-bottom",
      severity: "error",
      comment: "lib/ imports contract/ only: its helpers take the little of a request's context they need, never the app's AppEnv (db/request-env.ts).",
      from: { path: "^worker/src/lib/" },
      to: { path: "^worker/src/", pathNot: ["^worker/src/(lib|contract)/"] },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "domain/ imports only contract/ and the pure lib/ helpers.",
      from: { path: "^worker/src/domain/" },
      to: { path: "^worker/src/", pathNot: ["^worker/src/(domain|contract)/", PURE_LIB] },
    },
    {
      name: "db-never-reaches-up",
      severity: "error",
      from: { path: "^worker/src/db/" },
      to: { path: [below("routes", "middleware", "carts", "manage", "durable", "admin", "mail"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "carts-below-the-doors",
      severity: "error",
      comment: "Cart code does not import middleware or routes.",
      from: { path: "^worker/src/carts/" },
      to: { path: [below("routes", "middleware", "durable", "admin"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "mail-below-the-doors",
      severity: "error",
      comment: "mail/ reads D1 and composes with domain/email; it never reaches the doors, the carts or the objects.",
      from: { path: "^worker/src/mail/" },
      to: { path: [below("routes", "middleware", "carts", "durable", "admin", "manage"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "manage-below-the-doors",
      severity: "error",
      comment: "The changes operators make are the same whichever door asks: manage/ imports no middleware, route or page.",
      from: { path: "^worker/src/manage/" },
      to: { path: [below("routes", "middleware", "durable", "admin"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "integrations-are-leaves",
      severity: "error",
      comment: "An outside service's client knows the provider and nothing of ours above the pure rules.",
      from: { path: "^worker/src/integrations/" },
      to: { path: "^worker/src/", pathNot: ["^worker/src/(integrations|contract|domain|lib)/"] },
    },
    {
      name: "only-manage-and-durable-use-integrations",
      severity: "error",
      comment: "The outside services are reached by the changes (manage/) and the objects that deliver (durable/), never by a door.",
      from: { path: "^worker/src/", pathNot: "^worker/src/(integrations|manage|durable)/" },
      to: { path: "^worker/src/integrations/" },
    },
    {
      name: "durable-below-the-doors",
      severity: "error",
      from: { path: "^worker/src/durable/" },
      to: { path: [below("routes", "middleware", "admin"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "middleware-below-routes",
      severity: "error",
      from: { path: "^worker/src/middleware/" },
      to: { path: [below("routes", "admin"), "^worker/src/(app|index)\\.ts$"] },
    },
    {
      name: "only-the-entry-imports-app",
      severity: "error",
      from: { path: "^worker/src/", pathNot: "^worker/src/index\\.ts$" },
      to: { path: "^worker/src/(app|index)\\.ts$" },
    },
    {
      name: "widget-api-and-strings-at-the-bottom",
      severity: "error",
      comment: "The widget's client and texts import nothing of the widget but each other.",
      from: { path: `${W}(api|strings)/` },
      to: { path: W, pathNot: `${W}(api|strings)/` },
    },
    {
      name: "widget-helpers-below-controllers",
      severity: "error",
      comment: "The pure helpers import api/, strings/ and each other, never a controller, a step or the element.",
      from: { path: W_HELPERS },
      to: { path: [`${W}(controllers|steps)/`, W_TOP] },
    },
    {
      name: "widget-controllers-below-the-views",
      severity: "error",
      comment: "Controllers hold state and actions; they never render (steps/) nor reach the composition or the element.",
      from: { path: `${W}controllers/` },
      to: { path: [`${W}steps/`, W_TOP] },
    },
    {
      name: "widget-steps-are-views",
      severity: "error",
      comment: "A step renders what it is given: of controllers/ it imports the store's types only, and never the composition or the element.",
      from: { path: `${W}steps/` },
      to: { path: [`${W}controllers/`, W_TOP], pathNot: `${W}controllers/store\\.ts$` },
    },
    {
      name: "widget-only-the-entry-imports-the-element",
      severity: "error",
      from: { path: W, pathNot: `${W}booking-widget\\.ts$` },
      to: { path: `${W}booking-widget(\\.component)?\\.ts$` },
    },
    {
      name: "widget-checkout-steps-loaded-on-demand",
      severity: "error",
      comment: "The checkout steps' chunk is imported by its loader only, and only dynamically (import()), so widget.js stays small.",
      from: { path: W },
      to: { path: `${W}checkout-steps\\.ts$`, dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "widget-checkout-steps-loader-only",
      severity: "error",
      from: { path: W, pathNot: `${W}load-checkout-steps\\.ts$` },
      to: { path: `${W}checkout-steps\\.ts$` },
    },
    {
      name: "widget-first-screen-holds-no-checkout-step",
      severity: "error",
      comment: "What widget.js holds never imports statically what only the checkout steps' chunk needs (it would land in widget.js).",
      from: { path: W_FIRST_SCREEN },
      to: { path: W_CHUNK_ONLY, dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "widget-reaches-only-the-pure-worker",
      severity: "error",
      comment: "Of the worker, the widget imports the shapes (contract/) and pure rules (domain/) only.",
      from: { path: W },
      to: { path: "^worker/src/", pathNot: "^worker/src/(contract|domain)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["\\.test\\.tsx?$", "worker-configuration\\.d\\.ts$"] },
    // TypeScript 7 has no JavaScript API to parse with: swc reads the sources.
    parser: "swc",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
