import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { startSiteverify } from "./test/turnstile-siteverify";
import { startStripeStandin } from "./test/stripe-standin";

// The local send_email binding writes each message it is handed to an .eml file under the
// operating system's temporary directory: this run's own, so the tests can read exactly what was
// sent (worker/test/mail-files.ts).
process.env.BW_MAIL_TMPDIR ??= mkdtempSync(join(tmpdir(), "bw-vitest-mail-"));
process.env.TMPDIR = process.env.BW_MAIL_TMPDIR;

// Tests run inside workerd with real local D1 and Durable Objects.
export default defineConfig(async () => {
  // A loopback stand-in for Turnstile's siteverify (worker/test/turnstile-siteverify.ts), started
  // here because the Worker's variables name its address.
  const siteverify = await startSiteverify();
  // A loopback stand-in for Stripe's API (worker/test/stripe-standin.ts): the real SDK talks HTTP to it.
  const stripe = await startStripeStandin();
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations("./worker/migrations"),
            KEY_SIGNING_SECRET: "test-signing-secret-not-for-production-0123456789",
            ALLOW_TEST_CLOCK: "1",
            ALLOW_LOOPBACK_WEBHOOKS: "true",
            // As deployed (wrangler.toml), whatever a local .dev.vars says: `npm start` writes "false"
            // there, which the pool would read too, and every test visitor would be one address.
            TRUST_CF_CONNECTING_IP: "true",
            // The operator's sending configuration (docs/email.md): the tests' businesses send from
            // their own domains, or from the platform's sender; unverified.example is listed but the
            // binding below refuses it, as Cloudflare refuses a domain whose records are not verified.
            EMAIL_SENDING_DOMAINS: "platform.example,bluewave.example,camp.example,unverified.example",
            EMAIL_DEFAULT_FROM: "bookings@platform.example",
            TURNSTILE_VERIFY_URL: siteverify.url,
            STRIPE_API_BASE: stripe.url,
            SECRETS_KEY: "test-secrets-key-not-for-production-0123456789",
            // Fuzz budget (worker/test/fuzz-*.test.ts): more runs or another seed from the shell.
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
            FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          },
          // The send_email binding of wrangler.toml, restricted to the senders the tests verify (as
          // Cloudflare refuses a sender whose domain is not onboarded): any other fails its send.
          email: { send_email: [{ name: "EMAIL", allowed_sender_addresses: ["bookings@bluewave.example", "mail@camp.example", "bookings@platform.example"] }] },
        },
      }),
    ],
    test: {
      include: ["worker/**/*.test.ts"],
      setupFiles: ["./worker/test/setup.ts"],
      // A real loopback HTTP receiver for the webhook tests (worker/test/private-webhooks.test.ts).
      globalSetup: ["./worker/test/private-webhook-receiver.ts", "./worker/test/mail-files.ts"],
      testTimeout: 30_000,
      // One workerd and one isolate per pool worker, for all the files it runs: a file's own
      // workerd and module graph cost 2-3 s of a 2-core machine each, 100 files about 2 of the 3.5
      // minutes of this suite. Each file still starts on empty storage and an empty process memory
      // (worker/test/setup.ts), as if alone.
      isolate: false,
      // Each test file gets its own workerd, whose start-up is mostly waiting: on a 2-core machine two
      // files at a time take 128 s where vitest's default of one took 165 s.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      // The per-request log line is wanted in production, not between test results.
      onConsoleLog: (log: string) => !log.startsWith('{"request_id"'),
    },
  };
});
