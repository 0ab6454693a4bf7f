/**
 * API keys of a business, made and revoked from the back office's Developers screen (the keys
 * CLI does the same to a database it reaches through wrangler). A key is shown once: only its
 * SHA-256 is stored.
 */
import { auditStatements, type Actor } from "../db/audit-log";
import { activeKeyGuard, apiKeyRow, insertApiKeyStatement, isDuplicateKeyName, revokeApiKeyStatement } from "../db/api-keys";
import { isGuardFailure } from "./input";
import { ApiError, invalid, notFound } from "../lib/errors";
import { issueKey, type KeyScope } from "../lib/keys";

/** The names the keys CLI accepts too: they show in request logs. */
export const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._:@-]{0,63}$/;

/** The back office passes its env; the keys CLI its database and the signing secret it read. */
type KeyStore = Pick<Env, "DB" | "KEY_SIGNING_SECRET">;

export async function createApiKey(env: KeyStore, actor: Actor, businessId: number, input: { name: string; scope: string }, now: Date): Promise<{ id: string; token: string }> {
  const name = input.name.trim();
  if (!KEY_NAME.test(name)) throw invalid("name", "1 to 64 letters, digits, spaces and . _ : @ - (it shows in request logs)");
  if (input.scope !== "public" && input.scope !== "private") throw invalid("scope", "must be public or private");
  if (!env.KEY_SIGNING_SECRET) throw new Error("KEY_SIGNING_SECRET is not configured");
  const key = await issueKey(env.KEY_SIGNING_SECRET, businessId, input.scope as KeyScope, now);
  try {
    await env.DB.batch([
      insertApiKeyStatement(env.DB, businessId, { id: key.id, name, scope: input.scope, hash: key.hash }, now),
      ...auditStatements(env.DB, businessId, actor, [{ action: "created", entity: "api_key", entityId: key.id, summary: `Created the ${input.scope} key "${name}"`, after: { name, scope: input.scope } }], now),
    ]);
  } catch (err) {
    if (isDuplicateKeyName(err)) throw new ApiError(409, "conflict", `An active key is already named "${name}". Choose another name, or revoke that key first.`, { errors: [{ path: "name", message: "an active key has this name" }] });
    throw err;
  }
  return { id: key.id, token: key.token };
}

/** Revoke a key of the business: it is refused from the next request on. 404 for no such active key. */
export async function revokeApiKey(env: Pick<Env, "DB">, actor: Actor, businessId: number, id: string, now: Date): Promise<string> {
  const db = env.DB;
  const key = await apiKeyRow(db, businessId, id);
  if (!key || key.revoked_at) throw notFound("The active key");
  try {
    await db.batch([
      activeKeyGuard(db, businessId, id),
      revokeApiKeyStatement(db, businessId, id, now),
      ...auditStatements(db, businessId, actor, [{ action: "revoked", entity: "api_key", entityId: id, summary: `Revoked the key "${key.name}"`, before: { name: key.name, scope: key.scope } }], now),
    ]);
  } catch (err) {
    if (isGuardFailure(err)) throw notFound("The active key");
    throw err;
  }
  return key.name;
}
