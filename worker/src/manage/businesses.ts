/**
 * A new business, as the business CLI onboards one: its settings from BusinessConfig's defaults
 * and one default currency, in one batch with its audit entry (the first entry of its log).
 */
import { configSchemas } from "../contract/config";
import type { Actor } from "../db/audit-log";
import { insertBusinessStatements, isBusinessIdTaken, isDuplicateSlug } from "../db/businesses";
import { claimBusiness, isDirectorySlugTaken, placementShard, releaseClaim, shardsOf } from "../db/shards";
import { ApiError } from "../lib/errors";
import { write, type Store } from "./write";

const ATTEMPTS = 4;

export interface NewBusiness {
  slug: string;
  title: string;
  companyName?: string;
  currency: { isoCode: string; title: string; symbol: string };
}

/**
 * Create the business; answers its id. 409 when the slug is taken. The directory (on DB) gives its
 * id and its shard, the one with the fewest businesses among those `store` reaches (a CLI's store
 * reaches the shards it opened); the business is then written there, and the claim released if
 * that fails (docs/design.md "Shards").
 */
export async function createBusiness(store: Store & Pick<Env, "DB">, actor: Actor, input: NewBusiness, now: Date): Promise<number> {
  const shards = shardsOf(store);
  const config = JSON.stringify(configSchemas().BusinessConfig.parse({}));
  for (let attempt = 1; ; attempt++) {
    const shard = await placementShard(store.DB, shards.length);
    let id: number;
    try {
      id = await claimBusiness(store.DB, input.slug, shard);
    } catch (err) {
      if (isDirectorySlugTaken(err)) throw new ApiError(409, "conflict", `A business with the slug "${input.slug}" already exists.`);
      // Another business claimed the same id at the same moment.
      if (/UNIQUE constraint failed: shard_directory\.business_id/.test(String(err)) && attempt < ATTEMPTS) continue;
      throw err;
    }
    const db = shards[shard];
    const onShard: Store = { ...store, DB: db };
    try {
      await write(onShard, actor, id, now, {
        statements: insertBusinessStatements(db, { id, slug: input.slug, title: input.title, companyName: input.companyName ?? "", config }, input.currency, now),
        audit: [{ action: "created", entity: "business", entityId: String(id), summary: `Created business "${input.title}" (${input.slug})`, after: { slug: input.slug, title: input.title, currency: input.currency.isoCode } }],
      });
      return id;
    } catch (err) {
      await releaseClaim(store.DB, id);
      if (isDuplicateSlug(err)) throw new ApiError(409, "conflict", `A business with the slug "${input.slug}" already exists.`);
      // A business made before the directory holds this id.
      if (isBusinessIdTaken(err) && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}
