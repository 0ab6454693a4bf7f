/**
 * The demo business (slug `demo`): a surf and yoga camp with a weekly package, dorms by gender,
 * private rooms, srs, included surf lessons, yoga on timeslots, board rental, airport transfer,
 * stand-alone activities and rentals, seasons, two currencies and three languages.
 *
 * It is a catalog file (demo.catalog.json, the format `npm run catalog -- export|apply` reads and
 * writes), applied through the same code as the private API: by `npm start` (scripts/server.ts)
 * and by every worker test file's setup. Applying it again changes nothing; a change made to the
 * demo through the API is undone by the next apply (make a business of your own to keep changes).
 * The file carries its entries' ids (101, 201, ... as the tests and docs name them), which a
 * fresh database gives them.
 */
import demoCatalogJson from "./demo.catalog.json" with { type: "json" };

export const DEMO_BUSINESS_ID = 1;
export const DEMO_SLUG = "demo";

/** The demo's catalog file, as JSON (parse it with contract/catalog-file.ts CatalogFile). */
export const demoCatalog: unknown = demoCatalogJson;

/** The demo business's row, made before its catalog is applied (kept when it exists): db/businesses.ts ensureBusinessStatement. */
export const DEMO_BUSINESS = { slug: DEMO_SLUG, title: "Blue Wave Surf & Yoga Camp", createdAt: "2026-01-01T00:00:00Z" };

/** The same row as SQL, for the worker tests' setup. */
export const DEMO_BUSINESS_SQL = `INSERT OR IGNORE INTO businesses (slug, title, created_at) VALUES ('${DEMO_BUSINESS.slug}', '${DEMO_BUSINESS.title}', '${DEMO_BUSINESS.createdAt}')`;
