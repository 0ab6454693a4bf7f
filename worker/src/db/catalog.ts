import { businessById, type Business } from "./businesses";

export interface CurrencyRow {
  id: number;
  iso_code: string;
  title: string;
  symbol: string;
  exchange_rate: number;
  is_default: number;
}
export interface TitledRow {
  id: number;
  title: string;
  description: string;
  abbreviation: string | null;
}

/** The business with its currencies (default first), diets and levels: one round trip. */
export async function loadBusinessCatalog(db: D1Database, businessId: number) {
  const [currencies, diets, levels] = await db.batch([
    db.prepare("SELECT id, iso_code, title, symbol, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id").bind(businessId),
    db.prepare("SELECT id, title, description, abbreviation FROM diets WHERE business_id = ? ORDER BY id").bind(businessId),
    db.prepare("SELECT id, title, description, abbreviation FROM levels WHERE business_id = ? ORDER BY id").bind(businessId),
  ]);
  const business = (await businessById(db, businessId)) as Business;
  return {
    business,
    currencies: currencies.results as unknown as CurrencyRow[],
    diets: diets.results as unknown as TitledRow[],
    levels: levels.results as unknown as TitledRow[],
  };
}
export type BusinessCatalog = Awaited<ReturnType<typeof loadBusinessCatalog>>;
