import type { Business } from "../domain/catalog";
import { businessBySlug } from "./businesses";
import { processMemory } from "../lib/process-memory";
import type { D1 } from "./d1";

/**
 * The widget door's memory of businesses, per Worker process: a business as D1 last showed it (its
 * widget origins, rate limit and catalog version), plain data, reused for `FRESH_MS` after that
 * read. Within that time a widget request costs no D1 read at its door, and the version it carries
 * keys the proxy's kept answers (routes/widget.ts), so a kept bootstrap is served with no D1 read
 * at all. After it, the next request reads the business again (one small read per process per
 * half second, however many guests there are).
 *
 * So a change reaches the widget within FRESH_MS, whatever made it (the API, the back office, a
 * CLI, `wrangler d1 execute`: the triggers of migration 0070 move the version); a change made
 * through manage/ (write.ts) also drops the business here at once, which the process that made it
 * sees on its next request. Nothing here is a promise or an I/O object: requests that find the
 * entry old at the same moment each read for themselves. An unknown slug is never remembered.
 */
export const FRESH_MS = 500;
const MAX_BUSINESSES = 512;

/** A business as the door knows it, and its catalog version then. */
export interface DoorBusiness {
  business: Business;
  /** `catalog_version` as D1 showed it (as the nearest double, as db/businesses.ts compares it). */
  version: number;
}

interface Entry extends DoorBusiness {
  /** When D1 showed it (the request's clock: the test clock moves it too). */
  readAt: number;
}

const bySlug = processMemory(new Map<string, Entry>());

/** The business of `slug` as read at most FRESH_MS before `now`, else read from D1 now. Treat it as read-only. */
export async function rememberedBusiness(db: D1, slug: string, now: number): Promise<DoorBusiness | null> {
  const known = bySlug.get(slug);
  // a clock that went back (the test clock) makes an entry old too
  if (known && now >= known.readAt && now - known.readAt < FRESH_MS) return known;
  const business = await businessBySlug(db, slug);
  bySlug.delete(slug);
  if (!business) return null;
  // the row is read whole (SELECT *): its catalog_version comes with it
  const entry: Entry = { business, version: Number((business as Business & { catalog_version?: unknown }).catalog_version), readAt: now };
  if (bySlug.size >= MAX_BUSINESSES) bySlug.delete(bySlug.keys().next().value!);
  bySlug.set(slug, entry);
  return entry;
}

/** Forget a business (manage/write.ts, after a change committed): the next request reads it again. */
export function forgetBusiness(businessId: number): void {
  for (const [slug, entry] of bySlug) if (entry.business.id === businessId) bySlug.delete(slug);
}
