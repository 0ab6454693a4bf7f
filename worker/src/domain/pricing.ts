/**
 * Pricing rules, pure. Amounts are minor units of the business's default currency; conversion
 * happens afterwards (money.ts).
 *
 * - A rate belongs to a product and optionally to a season. On a date, the seasons whose
 *   segments (inclusive bounds) contain it are tried by priority, highest first; the first that
 *   has a rate for the product overrides the base rate (season_id null).
 * - Quantity tiers: among the rates of that season (or the base), the one with the highest
 *   min_qty not above the count of items applies.
 * - `per`: night and day rates are summed over each date in force; hour rates are multiplied by
 *   the hours; a stay rate is charged once for the whole stay — except for products sold by the
 *   hour (sessions), where every date is its own stay.
 */
export type RateUnit = "person" | "unit" | "room";
export type RatePer = "stay" | "night" | "day" | "hour";

export interface Rate {
  season_id: number | null;
  amount_minor: number;
  unit: RateUnit;
  per: RatePer;
  min_qty: number;
}

export interface SeasonSegment {
  season_id: number;
  priority: number;
  start_date: string;
  end_date: string;
}

/** The seasons in force on a date, highest priority first (ties: lower season id first). */
export function seasonsOn(date: string, segments: SeasonSegment[]): number[] {
  const hits = segments.filter((s) => s.start_date <= date && date <= s.end_date);
  hits.sort((a, b) => b.priority - a.priority || a.season_id - b.season_id);
  return [...new Set(hits.map((s) => s.season_id))];
}

function bestTier(rates: Rate[], count: number): Rate | null {
  let best: Rate | null = null;
  for (const r of rates) if (r.min_qty <= count && (!best || r.min_qty > best.min_qty)) best = r;
  return best;
}

/** The rate in force on `date` for `count` items, or null when the product has none. */
export function rateOn(rates: Rate[], segments: SeasonSegment[], date: string, count = 1): Rate | null {
  for (const season of seasonsOn(date, segments)) {
    const tier = bestTier(
      rates.filter((r) => r.season_id === season),
      count,
    );
    if (tier) return tier;
  }
  return bestTier(
    rates.filter((r) => r.season_id === null),
    count,
  );
}

/** True when a lower price exists from some quantity on (the API's `from_price`). */
export function hasQuantityTiers(rates: Rate[]): boolean {
  return rates.some((r) => r.min_qty > 1);
}

/** How many units of each kind a priced line is for. */
export interface Units {
  person: number;
  unit: number;
  room: number;
}

export interface PriceInput {
  /** The dates the product is used on: a stay's nights, a rental's days, an activity's sessions. */
  dates: string[];
  units: Units;
  /** Hours per date, for rates per hour (default 1). */
  hours?: number;
  /** Sold by sessions (duration unit hour): a stay rate is charged per date. */
  perSession?: boolean;
}

export interface Priced {
  amount_minor: number;
  /** The unit of the rate that applied on the first date (null when the product has no rate). */
  unit: RateUnit | null;
  per: RatePer | null;
}

/**
 * The price of using a product on some dates. A product without any rate costs 0.
 * The tier count is the number of items: units times the dates charged separately.
 */
export function priceFor(rates: Rate[], segments: SeasonSegment[], input: PriceInput): Priced {
  const { dates, units } = input;
  if (dates.length === 0 || rates.length === 0) return { amount_minor: 0, unit: null, per: null };
  const first = rateOn(rates, segments, dates[0]);
  if (!first) return { amount_minor: 0, unit: null, per: null };
  const oncePerStay = first.per === "stay" && !input.perSession;
  const occurrences = oncePerStay ? [dates[0]] : dates;
  const count = units[first.unit] * occurrences.length;
  let amount = 0;
  let shown: Rate | null = null;
  for (const date of occurrences) {
    const rate = rateOn(rates, segments, date, count);
    if (!rate) continue;
    shown ??= rate;
    const hours = rate.per === "hour" ? (input.hours ?? 1) : 1;
    amount += rate.amount_minor * units[rate.unit] * hours;
  }
  return { amount_minor: amount, unit: shown?.unit ?? first.unit, per: shown?.per ?? first.per };
}

