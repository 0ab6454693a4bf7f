/**
 * The house's layer rules, checked by dependency-cruiser in `npm test` (suite "house"):
 *
 *   contract/   zod shapes of every request and answer, error codes, event names   imports nothing of ours
 *   lib/        small helpers (errors, time, ids, keys) and the one error path      contract/, env.ts
 *   domain/     pure rules: pricing, availability, persons, the catalog snapshot    contract/, pure lib/
 *   db/         SQL, the only place that writes it; how a request reads its tenant  domain/, contract/, lib/
 *   carts/      cart operations and checkout (run by the routes)                    db/ and below
 *   manage/     the changes an operator makes (private API, back office, CLIs)      db/ and below
 *   mail/       e-mails composed from D1 for the delivery object                    db/ and below
 *   durable/    Durable Object classes only                                        carts/, db/ and below
 *   middleware/ the doors' checks: auth, https, idempotency, cors, rate limit      db/ and below
 *   routes/     thin handlers                                                      anything above, never app.ts
 *   app.ts, index.ts   the composition; only index.ts imports app.ts
 *
 * env.ts holds the request's types (bindings, tenant, access) and imports types from below only.
 * Nothing may form an import cycle. See docs/design.md.
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
      from: { path: "^worker/src/lib/" },
      to: { path: "^worker/src/", pathNot: ["^worker/src/(lib|contract)/", "^worker/src/env\\.ts$"] },
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
      name: "env-types-from-below",
      severity: "error",
      from: { path: "^worker/src/env\\.ts$" },
      to: { path: "^worker/src/", pathNot: ["^worker/src/(domain|contract|lib)/"] },
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
