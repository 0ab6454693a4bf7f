import { sign, verify } from "hono/utils/jwt/jwt";

/** API keys are HS256 JWTs. Only their SHA-256 is stored; the record is checked on every call. */
export type KeyScope = "public" | "private";

export interface KeyClaims {
  jti: string;
  /** business id */
  bid: number;
  scope: KeyScope;
  iat: number;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Make a new key; returns the token (shown once) and the row to store. */
export async function issueKey(secret: string, businessId: number, scope: KeyScope, now = new Date()) {
  const claims: KeyClaims = { jti: crypto.randomUUID(), bid: businessId, scope, iat: Math.floor(now.getTime() / 1000) };
  const token = await sign({ ...claims }, secret, "HS256");
  return { token, id: claims.jti, hash: await sha256Hex(token) };
}

/** The key's claims when its signature holds and its shape is ours; null otherwise. */
export async function readKey(secret: string, token: string): Promise<KeyClaims | null> {
  try {
    const payload = (await verify(token, secret, "HS256")) as Partial<KeyClaims>;
    if (typeof payload.jti !== "string" || typeof payload.bid !== "number") return null;
    if (payload.scope !== "public" && payload.scope !== "private") return null;
    return payload as KeyClaims;
  } catch {
    return null;
  }
}
