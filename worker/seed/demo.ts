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

/**
 * The second demo business (slug `dive`): a dive centre, another shape of business than the surf
 * camp. Boat dives on timeslots (09:00 and 14:00, ten places each), a three-day course starting on
 * Mondays, a wetsuit rental by the day, a lodge's double room, a snorkel tour, and a dive weekend
 * sold as a package without a room. Everything it lists is sold on its own (issue 27). Seeded once
 * by `npm start`, as the surf camp is; its catalog file carries no ids (a database gives them).
 */
import diveCatalogJson from "./dive.catalog.json" with { type: "json" };

export const DIVE_SLUG = "dive";
export const diveCatalog: unknown = diveCatalogJson;
export const DIVE_BUSINESS = { slug: DIVE_SLUG, title: "Atlantic Dive Centre", createdAt: "2026-01-01T00:00:00Z" };
