import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { d1ExecuteScript, d1Query, type SqlValue } from "../worker/scripts/lib/d1";
import { portIsFree, startServer, type RunningServer } from "../worker/scripts/server";
import { issueKey } from "../worker/src/lib/keys";

export { expect };

/** This helper's port range (8830-8839): one per Playwright worker. */
async function pickPort(workerIndex: number): Promise<number> {
  for (let i = 0; i < 10; i++) {
    const port = 8830 + ((workerIndex + i) % 10);
    if (await portIsFree(port)) return port;
  }
  throw new Error("No free port in 8830-8839 for the e2e server.");
}

export interface E2EServer extends RunningServer {
  /** Run SQL on this server's own D1 (wrangler d1 execute on its state directory). */
  query<Row = Record<string, unknown>>(sql: string, ...params: SqlValue[]): Promise<Row[]>;
  exec(sql: string, ...params: SqlValue[]): Promise<void>;
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

export const test = base.extend<{ axe: (page: Page, step: string) => Promise<void>; shot: (page: Page, name: string) => Promise<void> }, { server: E2EServer }>({
  server: [
    async ({}, use, workerInfo) => {
      const persistTo = mkdtempSync(join(tmpdir(), `bw-e2e-${workerInfo.workerIndex}-`));
      const port = await pickPort(workerInfo.workerIndex);
      const tmpDir = join(persistTo, "tmp");
      const running = await startServer({ port, persistTo, tmpDir, readyTimeoutMs: 90_000 });
      const target = { persistTo };
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
        async query<Row>(sql: string, ...params: SqlValue[]) {
          const [rows] = await d1Query<Row>(target, [{ sql, params }]);
          return rows ?? [];
        },
        async exec(sql: string, ...params: SqlValue[]) {
          await d1ExecuteScript(target, [{ sql, params }]);
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
      });
      await use(server);
      await running.stop();
      rmSync(persistTo, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 120_000 },
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
