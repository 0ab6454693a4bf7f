import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import type { SqlValue } from "../worker/scripts/lib/wrangler-d1";
import { openDatabase } from "../worker/scripts/lib/cli-database";
import { FRESH_MS } from "../worker/src/db/business-memo";
import { freePort, startServer, type RunningServer } from "../worker/scripts/server";
import { issueKey } from "../worker/src/lib/keys";
import { SHARD_BINDINGS } from "../worker/src/db/shards";
import { startSiteverify } from "../worker/test/turnstile-siteverify";
import { startStripeStandin } from "../worker/test/stripe-standin";

export { expect };

const PORT_CLAIMS = join(tmpdir(), "bw-e2e-ports");

/**
 * Claim a port for this process: a claim file made with `wx` (only one process can make it). A
 * free port alone is not enough: wrangler binds it seconds later, and of two runs (two workers,
 * or two checkouts testing on one machine) that both found it free, the second's wrangler cannot
 * bind it while its readiness check is answered by the first's server, which its tests then use
 * (seen: an invitation link answered by another checkout's server). A claim whose process is
 * gone is taken over.
 */
function claimPort(port: number): boolean {
  mkdirSync(PORT_CLAIMS, { recursive: true });
  const file = join(PORT_CLAIMS, `${port}.pid`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return true;
    } catch {
      const owner = Number(readFileSync(file, "utf8"));
      try {
        if (owner && owner !== process.pid) process.kill(owner, 0);
        return false; // its process lives (or it is ours already)
      } catch {
        rmSync(file, { force: true }); // a dead process's claim
      }
    }
  }
  return false;
}
const releasePort = (port: number) => {
  const file = join(PORT_CLAIMS, `${port}.pid`);
  try {
    if (Number(readFileSync(file, "utf8")) === process.pid) rmSync(file, { force: true });
  } catch {
    /* gone already */
  }
};

/**
 * A claimed port the system just found free. Not a fixed range: every checkout on the machine
 * runs these tests, and a range shared by all of them (8830-8839 before) let their servers meet.
 */
async function pickPort(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    if (claimPort(port)) return port;
  }
  throw new Error("No free port could be claimed for the e2e server.");
}

export interface E2EServer extends RunningServer {
  /** Run SQL on this server's own D1 (wrangler d1 execute on its state directory). */
  query<Row = Record<string, unknown>>(sql: string, ...params: SqlValue[]): Promise<Row[]>;
  exec(sql: string, ...params: SqlValue[]): Promise<void>;
  /** query and exec on the D1 of the shard a business lives on (`dive` is on shard 1: docs/design.md "Shards"). */
  shardOf(slug: string): Promise<Pick<E2EServer, "query" | "exec">>;
  /** Merge settings into the demo business's config (e.g. a short cart lifetime). */
  setDemoConfig(patch: Record<string, unknown>): Promise<void>;
  /** A private API key of the demo business, created straight in D1 as the keys CLI does. */
  privateKey(): Promise<string>;
  /** A public API key of the demo business (for what integrators do, e.g. deep links). */
  publicKey(): Promise<string>;
  publicApi<T = any>(path: string): Promise<{ status: number; body: T }>;
  /** Call the private API with a private key. */
  privateApi<T = any>(path: string): Promise<{ status: number; body: T }>;
  /**
   * Every e-mail handed to the server's send_email binding so far, parsed as MIME: wrangler's
   * local binding writes each message it is given to an .eml file under the server's TMPDIR.
   */
  sentMail(): Promise<ParsedMail[]>;
  /** The loopback Stripe stand-in this server's STRIPE_API_BASE names (worker/test/stripe-standin.ts), with its own payment pages. */
  stripeStandin: string;
}

/** The .eml files the local send_email binding wrote under `tmp` (miniflare-<random>/files/email/). */
function emlFiles(tmp: string): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(tmp, { withFileTypes: true })) {
    if (!dir.isDirectory() || !dir.name.startsWith("miniflare-")) continue;
    const mail = join(tmp, dir.name, "files", "email");
    try {
      for (const f of readdirSync(mail)) if (f.endsWith(".eml")) out.push(join(mail, f));
    } catch {
      /* nothing sent yet */
    }
  }
  return out;
}

/** The tests' own SQL on one of the server's databases (a shard's binding of the worker's proxy). */
function sqlOn(db: D1Database) {
  return {
    async query<Row>(sql: string, ...params: SqlValue[]): Promise<Row[]> {
      const [result] = await db.batch([db.prepare(sql).bind(...params)]);
      return (result.results ?? []) as Row[];
    },
    async exec(sql: string, ...params: SqlValue[]): Promise<void> {
      await db.batch([db.prepare(sql).bind(...params)]);
      // A write made behind the server's back reaches its pages within the bound the door
      // keeps a business for (db/business-memo.ts FRESH_MS; tested in widget-proxy.test.ts):
      // a journey goes on once that bound has passed, as it did when a write took seconds.
      await new Promise((r) => setTimeout(r, FRESH_MS));
    },
  };
}

export const test = base.extend<{ axe: (page: Page, step: string) => Promise<void>; shot: (page: Page, name: string) => Promise<void>; serverLog: void }, { server: E2EServer }>({
  server: [
    async ({}, use, workerInfo) => {
      const persistTo = mkdtempSync(join(tmpdir(), `bw-e2e-${workerInfo.workerIndex}-`));
      const port = await pickPort();
      const tmpDir = join(persistTo, "tmp");
      // The test clock (X-Test-Now on a request) is on for these servers only, so a journey can
      // move the service's time with the browser's (expiry.spec.ts); wrangler.toml, as deployed,
      // leaves it off, and worker/test/test-clock.test.ts checks that it is then ignored.
      // Turnstile's siteverify, as a loopback stand-in (worker/test/turnstile-siteverify.ts): the
      // human-check journey (human-check.spec.ts) turns the check on for the demo business.
      const siteverify = await startSiteverify();
      // Stripe, as a loopback stand-in with its own payment pages (worker/test/stripe-standin.ts):
      // the pay-online journey (pay-online.spec.ts) connects the demo business to it.
      const stripe = await startStripeStandin({ hostedPages: true });
      const running = await startServer({ port, persistTo, tmpDir, readyTimeoutMs: 90_000, env: { ALLOW_TEST_CLOCK: "1", TURNSTILE_VERIFY_URL: siteverify.url, STRIPE_API_BASE: stripe.url } });
      // The tests' own reads and writes of the server's database, through one local D1 (miniflare) on its
      // state kept open for the worker's life: a round trip in-process, where `wrangler d1 execute`
      // started a runtime for each (two to four seconds of a busy 2-core machine). A batch that
      // meets the server's write lock is tried again (worker/scripts/lib/cli-database.ts).
      const database = await openDatabase({ persistTo });
      const keys: Record<string, string> = {};
      const createKey = async (scope: "public" | "private") => {
        if (keys[scope]) return keys[scope];
        const issued = await issueKey(running.secret, 1, scope);
        await server.exec(
          "INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, 1, ?, ?, ?, ?)",
          issued.id, `e2e-${scope}-${issued.id.slice(0, 8)}`, scope, issued.hash, new Date().toISOString(),
        );
        return (keys[scope] = issued.token);
      };
      const callWith = async (scope: "public" | "private", path: string) => {
        const res = await fetch(`${running.url}${path}`, { headers: { Authorization: `Bearer ${await createKey(scope)}` } });
        const text = await res.text();
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        return { status: res.status, body };
      };
      const server: E2EServer = Object.assign(running, {
        ...sqlOn(database.db),
        async shardOf(slug: string) {
          const [entry] = await server.query<{ shard: number }>("SELECT shard FROM shard_directory WHERE slug = ?", slug);
          return sqlOn(database.shards[SHARD_BINDINGS[entry?.shard ?? 0]]);
        },
        async setDemoConfig(patch: Record<string, unknown>) {
          const [row] = await server.query<{ config: string }>("SELECT config FROM businesses WHERE slug = 'demo'");
          const config = { ...JSON.parse(row.config), ...patch };
          await server.exec("UPDATE businesses SET config = ? WHERE slug = 'demo'", JSON.stringify(config));
        },
        privateKey: () => createKey("private"),
        publicKey: () => createKey("public"),
        privateApi: (path: string) => callWith("private", path),
        publicApi: (path: string) => callWith("public", path),
        sentMail: () => Promise.all(emlFiles(tmpDir).map((file) => simpleParser(readFileSync(file)))),
        stripeStandin: stripe.url,
      });
      // Locally every browser is the one visitor "local" (TRUST_CF_CONNECTING_IP is off), so the
      // journeys of one worker would meet the demo's bound on confirmed bookings per visitor
      // (5 an hour), and journeys reuse a booker's address past the day's bound on e-mails to one
      // address (5): those bounds have tests of their own (worker/test/trust-abuse.test.ts, trust-email.test.ts).
      await server.setDemoConfig({ max_bookings_per_visitor_per_hour: 1000, max_bookings_per_visitor_per_day: 10_000, max_emails_per_recipient_per_day: 1000 });
      await use(server);
      await database.close();
      await running.stop();
      siteverify.server.close();
      stripe.close();
      releasePort(port);
      rmSync(persistTo, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 120_000 },
  ],

  /**
   * A test that failed carries what its server printed meanwhile (wrangler's request lines and the
   * Worker's errors), attached as server-output.txt, and its last lines in the run's log: a server
   * that stopped answering, or answered 500, says so there.
   */
  serverLog: [
    async ({ server }, use, testInfo) => {
      const before = server.output();
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const now = server.output();
      // output() keeps the last 100-200 kB: what came since the test began, or all it still holds.
      const during = now.startsWith(before) ? now.slice(before.length) : now;
      await testInfo.attach("server-output.txt", { body: during, contentType: "text/plain" });
      console.log(`--- ${testInfo.title}: the server's last lines ---\n${during.trim().split("\n").slice(-40).join("\n")}\n---`);
    },
    { auto: true },
  ],

  /** axe on the page as it is now: no violations allowed (the widget's shadow DOM included). */
  axe: async ({}, use, testInfo) => {
    await use(async (page, step) => {
      const results = await new AxeBuilder({ page }).include("booking-widget").analyze();
      const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      await testInfo.attach(`axe-${step}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: "application/json" });
      expect(summary, `axe violations on step "${step}"`).toEqual([]);
    });
  },

  /** A screenshot of the page, kept under e2e/artifacts/screenshots/ (git-ignored). */
  shot: async ({}, use, testInfo) => {
    const dir = join(testInfo.project.outputDir, "..", "screenshots");
    mkdirSync(dir, { recursive: true });
    await use(async (page, name) => {
      const slug = testInfo.titlePath.slice(1).join("-").toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60);
      await page.screenshot({ path: join(dir, `${slug}--${name}.png`), fullPage: true });
    });
  },
});

/** The widget's step heading (the element focus moves to). */
export const heading = (page: Page) => page.locator("booking-widget h2#step-heading");

/**
 * The e-mails about a booking (its reference in the subject) handed to the binding, once the
 * booker's confirmation and the business's notification are there: their delivery runs after the
 * checkout's answer.
 */
export async function sentFor(server: E2EServer, reference: string, count = 2): Promise<ParsedMail[]> {
  let found: ParsedMail[] = [];
  await expect
    .poll(async () => (found = (await server.sentMail()).filter((m) => m.subject?.includes(reference))).length, { message: `e-mails about ${reference}`, timeout: 10_000 })
    .toBe(count);
  return found;
}
