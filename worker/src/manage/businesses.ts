/**
 * A new business, as the business CLI onboards one: its settings from BusinessConfig's defaults
 * and one default currency, in one batch with its audit entry (the first entry of its log).
 */
import { BusinessConfig } from "../contract/config";
import type { Actor } from "../db/audit-log";
import { insertBusinessStatements, isBusinessIdTaken, isDuplicateSlug, nextBusinessId } from "../db/businesses";
import { ApiError } from "../lib/errors";
import { write, type Store } from "./write";

const ATTEMPTS = 4;

export interface NewBusiness {
  slug: string;
  title: string;
  companyName?: string;
  currency: { isoCode: string; title: string; symbol: string };
}

/** Create the business; answers its id. 409 when the slug is taken. */
export async function createBusiness(store: Store, actor: Actor, input: NewBusiness, now: Date): Promise<number> {
  const db = store.DB;
  const config = JSON.stringify(BusinessConfig.parse({}));
  for (let attempt = 1; ; attempt++) {
    const id = await nextBusinessId(db);
    try {
      await write(store, actor, id, now, {
        statements: insertBusinessStatements(db, { id, slug: input.slug, title: input.title, companyName: input.companyName ?? "", config }, input.currency, now),
        audit: [{ action: "created", entity: "business", entityId: String(id), summary: `Created business "${input.title}" (${input.slug})`, after: { slug: input.slug, title: input.title, currency: input.currency.isoCode } }],
      });
      return id;
    } catch (err) {
      if (isDuplicateSlug(err)) throw new ApiError(409, "conflict", `A business with the slug "${input.slug}" already exists.`);
      // Another business was created between the read of the next id and this batch.
      if (isBusinessIdTaken(err) && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}
