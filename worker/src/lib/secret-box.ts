/**
 * Secrets at rest (issue 31): a business's Stripe keys are sealed with AES-256-GCM (WebCrypto)
 * under a key derived (HKDF-SHA-256) from the Worker's secret SECRETS_KEY, and bound to what they
 * are (additional data "business:<id>:<field>"), so a sealed value copied to another business or
 * another field does not open. A sealed value is "v1.<iv base64url>.<ciphertext base64url>".
 * Without SECRETS_KEY nothing is sealed or opened (503 `secrets_key_missing`).
 */
import { ApiError } from "./errors";

const b64u = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromB64u = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const text = new TextEncoder();

/** The sealing key, or 503 when the deployment has no SECRETS_KEY (docs/configuration.md). */
async function sealingKey(secretsKey: string | undefined): Promise<CryptoKey> {
  if (!secretsKey || secretsKey.length < 32) {
    throw new ApiError(503, "secrets_key_missing", "This deployment has no SECRETS_KEY (a Worker secret of at least 32 characters): secrets cannot be stored or read. Nothing was changed.");
  }
  const base = await crypto.subtle.importKey("raw", text.encode(secretsKey), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: text.encode("booking-platform secret-box v1") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

const context = (businessId: number, field: string) => text.encode(`business:${businessId}:${field}`);

export async function seal(secretsKey: string | undefined, businessId: number, field: string, plain: string): Promise<string> {
  const key = await sealingKey(secretsKey);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: context(businessId, field) }, key, text.encode(plain)));
  return `v1.${b64u(iv)}.${b64u(sealed)}`;
}

/** The secret, or null when the value does not open (another key, business or field, or tampered). */
export async function open(secretsKey: string | undefined, businessId: number, field: string, sealed: string): Promise<string | null> {
  const key = await sealingKey(secretsKey);
  const [version, iv, body] = sealed.split(".");
  if (version !== "v1" || !iv || !body) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromB64u(iv), additionalData: context(businessId, field) }, key, fromB64u(body));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
