/** What the catalog routes share: the request's language and currency, and the product view. */
import type { Context } from "hono";
import type { Product as ProductView } from "../../contract/catalog";
import { chooseCurrency, displayPrice, type Currency, type CurrencyChoice } from "../../domain/money";
import { MAX_NIGHTS, translated, type Product } from "../../domain/product";
import type { AppEnv } from "../../db/request-env";
import { ApiError, invalid } from "../../lib/errors";
import { addDays, daysBetween, isoDate } from "../../lib/time";
import { readTenant } from "../../db/tenant-read";
import { type CatalogLookups, type CatalogSnapshot } from "../../domain/catalog";

export interface CatalogContext {
  businessId: number;
  /** The translation to show; undefined: the business's default language's texts. */
  language: string | undefined;
  /** The language of the texts that come back (Content-Language). */
  served: string;
  currencies: Currency[];
  choice: CurrencyChoice;
  lookups: CatalogLookups;
}

/**
 * Load what every catalog answer needs and check the requested currency against the business's
 * own (an unknown one is a 422, not a silent fallback). A language the business has no texts in
 * is not an error: the spec translates "when available", so the default language's texts come
 * back, and Content-Language says so (answerLanguage).
 */
export async function catalogContext(c: Context<AppEnv>, q: { language?: string; currency?: string }): Promise<CatalogContext> {
  return contextOf((await readTenant(c)).snap, q);
}

/** catalogContext() from a catalog snapshot already read. */
export function contextOf(snap: CatalogSnapshot, q: { language?: string; currency?: string }): CatalogContext {
  const { businessId, currencies, lookups } = snap;
  const config = snap.business.config;
  const offered = q.language !== undefined && q.language !== config.default_language && config.languages.includes(q.language);
  const choice = chooseCurrency(currencies, q.currency);
  return { businessId, language: offered ? q.language : undefined, served: offered ? q.language! : config.default_language, currencies, choice, lookups };
}

/** Says which language the answer's texts are in (Content-Language), and returns the context. */
export function answerLanguage(c: Context<AppEnv>, ctx: CatalogContext): CatalogContext {
  c.header("Content-Language", ctx.served);
  return ctx;
}

const ref = (id: number | null, titles: Map<number, string>) => (id !== null && titles.has(id) ? { id, title: titles.get(id)! } : null);

/** The fields every view of a product starts with, its texts in the requested language. */
export function productBasics(p: Product, language: string | undefined) {
  return {
    id: p.id,
    type: p.type,
    title: translated(p, "title", language),
    backoffice_title: p.backoffice_title,
    description: translated(p, "description", language),
    extended_description: translated(p, "extended_description", language),
    image: p.image,
  };
}

/**
 * A product as the API shows it (translated, with price_from in every currency). `lowest`: its
 * "from" price in minor units of the default currency (domain/package-quote.ts fromPriceMinor).
 */
export function productView(p: Product, ctx: CatalogContext, lowest: number | null): ProductView {
  return {
    ...productBasics(p, ctx.language),
    gender: p.gender ?? "mixed",
    backoffice_category: ref(p.backoffice_category_id, ctx.lookups.categories),
    frontoffice_category: ref(p.frontoffice_category_id, ctx.lookups.categories),
    location: ref(p.location_id, ctx.lookups.locations),
    accommodation_type: ref(p.accommodation_type_id, ctx.lookups.accommodationTypes),
    duration: p.duration,
    pax: { min: p.pax_min, max: p.pax_max },
    default_start_time: p.default_start_time,
    is_private: p.is_private,
    allowed_checkin_days: p.allowed_checkin_days,
    is_on_timeslots: p.is_on_timeslots,
    price_from:
      lowest === null
        ? []
        : ctx.currencies.map((target) => ({ value: displayPrice(lowest, { base: ctx.choice.base, target }), currency: target.iso_code })),
  };
}

export const productNotFound = (id: number) => new ApiError(404, "not_found", `Product ${id} was not found.`);

/** The availability window: start defaults to today, end to 30 days after start; at most 366 days. */
export function dateWindow(now: Date, start?: string, end?: string): { start: string; end: string } {
  const from = start ?? isoDate(now);
  const to = end ?? addDays(from, 30);
  if (to < from) throw invalid("end_date", "must not be before start_date");
  if (daysBetween(from, to) > MAX_NIGHTS) throw invalid("end_date", `must be at most ${MAX_NIGHTS} days after start_date`);
  return { start: from, end: to };
}

/** A list sent as `name[]=a&name[]=b`, as `name=a,b`, or both; undefined when neither was sent. */
export function mergeLists<T>(...lists: (T[] | undefined)[]): T[] | undefined {
  const sent = lists.filter((l): l is T[] => l !== undefined);
  return sent.length === 0 ? undefined : [...new Set(sent.flat())];
}
