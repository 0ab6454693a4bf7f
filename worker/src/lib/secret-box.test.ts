import { describe, expect, it } from "vitest";
import { open, seal } from "./secret-box";

const KEY = "a-secrets-key-of-at-least-32-characters-0123";

describe("secrets sealed at rest", () => {
  it("opens only with the same key, business and field, and never holds the secret in clear", async () => {
    const sealed = await seal(KEY, 7, "stripe_secret_key", "rk_live_abc123");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("abc123");
    expect(await open(KEY, 7, "stripe_secret_key", sealed)).toBe("rk_live_abc123");
    expect(await open(KEY, 8, "stripe_secret_key", sealed)).toBeNull();
    expect(await open(KEY, 7, "stripe_webhook_secret", sealed)).toBeNull();
    expect(await open(`${KEY}x`, 7, "stripe_secret_key", sealed)).toBeNull();
    const [v, iv, body] = sealed.split(".");
    // One character of the ciphertext changed to another (it once was "changed" to itself: the
    // test asked the last character what the one before it was, and failed 1 run in 64).
    const at = Math.floor(body.length / 2);
    const flipped = `${v}.${iv}.${body.slice(0, at)}${body[at] === "A" ? "B" : "A"}${body.slice(at + 1)}`;
    expect(flipped).not.toBe(sealed);
    expect(await open(KEY, 7, "stripe_secret_key", flipped)).toBeNull();
    // a fresh IV each time: the same secret seals differently
    expect(await seal(KEY, 7, "stripe_secret_key", "rk_live_abc123")).not.toBe(sealed);
  });

  it("refuses to seal without a SECRETS_KEY (503 secrets_key_missing)", async () => {
    await expect(seal(undefined, 7, "stripe_secret_key", "x")).rejects.toMatchObject({ status: 503, code: "secrets_key_missing" });
    await expect(seal("short", 7, "stripe_secret_key", "x")).rejects.toMatchObject({ status: 503 });
  });
});
