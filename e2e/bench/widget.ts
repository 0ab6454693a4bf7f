/**
 * The widget's own numbers, measured on /demo in a real browser (headless Chromium):
 * API round trips before the calendar is interactive (target 1), time to an interactive calendar,
 * cumulative layout shift (target 0) and the JavaScript transferred (gzip); then the time to an
 * interactive calendar and the layout shift again on a slow phone (PHONE below).
 *
 * Run alone: `npx tsx e2e/bench/widget.ts` (prints JSON). `npm run bench` includes it.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { ROOT, startServer } from "../../worker/scripts/server";
import { CHROMIUM_ARGS, chromiumPath } from "../chromium";

export interface WidgetNumbers {
  runs: number;
  apiRoundTrips: number;
  interactiveMs: number;
  cls: number;
  jsRawBytes: number;
  jsGzipBytes: number;
  /** The API calls of the first run, in order, for the report. */
  calls: string[];
  /** The layout shifts of the first run: value, time and the elements that moved. */
  shifts: string[];
  /** The same page on PHONE: median time to an interactive calendar, and its layout shift. */
  phone: { interactiveMs: number; cls: number };
}

/**
 * A guest on a mid-range phone on a mobile network, as Lighthouse's mobile profile has it:
 * 390×844 at 3×, touch, the CPU slowed 4×, 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up.
 */
export const PHONE = {
  label: "390×844 phone, CPU 4× slower, 150 ms RTT, 1.6 Mbit/s",
  context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  cpuSlowdown: 4,
  network: { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `port`: where to start the demo; a free port when not given. */
export async function measureWidget(opts: { port?: number; runs?: number; log?: (m: string) => void }): Promise<WidgetNumbers> {
  const log = opts.log ?? (() => {});
  const persistTo = join(ROOT, ".wrangler", "bench", "widget-run");
  rmSync(persistTo, { recursive: true, force: true });
  log("widget: building and starting the demo ...");
  const server = await startServer({ port: opts.port, persistTo, prepare: true, buildWidget: true });
  let browser: Browser | undefined;
  try {
    try {
      browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    } catch (err) {
      throw new Error(`no Chromium to measure the widget with (set CHROMIUM_PATH, or apt-get install chromium, or npx playwright install chromium): ${(err as Error).message.split("\n")[0]}`);
    }
    const runs = opts.runs ?? 3;
    const results: Omit<WidgetNumbers, "runs" | "phone">[] = [];
    for (let i = 0; i < runs; i++) results.push(await measureOnce(browser, `${server.url}/demo`, false));
    const phone: Omit<WidgetNumbers, "runs" | "phone">[] = [];
    for (let i = 0; i < runs; i++) phone.push(await measureOnce(browser, `${server.url}/demo`, true));
    return {
      runs,
      apiRoundTrips: median(results.map((r) => r.apiRoundTrips)),
      interactiveMs: median(results.map((r) => r.interactiveMs)),
      cls: median(results.map((r) => r.cls)),
      jsRawBytes: median(results.map((r) => r.jsRawBytes)),
      jsGzipBytes: median(results.map((r) => r.jsGzipBytes)),
      calls: results[0].calls,
      shifts: results[0].shifts,
      phone: { interactiveMs: median(phone.map((r) => r.interactiveMs)), cls: median(phone.map((r) => r.cls)) },
    };
  } finally {
    await browser?.close();
    await server.stop();
  }
}

if (process.argv[1] && /widget\.ts$/.test(process.argv[1])) {
  measureWidget({ port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined, log: (m) => process.stderr.write(`${m}\n`) })
    .then((n) => process.stdout.write(`${JSON.stringify(n, null, 2)}\n`))
    .catch((err) => {
      process.stderr.write(`${(err as Error).stack}\n`);
      process.exit(1);
    });
}

/** One cold load of the demo page; `onPhone`: under PHONE's conditions. */
async function measureOnce(browser: Browser, url: string, onPhone: boolean): Promise<Omit<WidgetNumbers, "runs" | "phone">> {
  const context = await browser.newContext(onPhone ? PHONE.context : {}); // cold cache each time
  const page = await context.newPage();
  if (onPhone) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpuSlowdown });
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", PHONE.network);
  }
  await page.addInitScript(() => {
    (window as any).__cls = 0;
    (window as any).__shifts = [];
    const describe = (n: any) => (n ? `${n.nodeName?.toLowerCase()}${n.id ? `#${n.id}` : ""}${n.className && typeof n.className === "string" ? `.${n.className.split(" ")[0]}` : ""}` : "?");
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) {
        if (e.hadRecentInput) continue;
        (window as any).__cls += e.value;
        (window as any).__shifts.push(`${e.value.toFixed(3)} at ${Math.round(e.startTime)} ms: ${(e.sources ?? []).map((s: any) => describe(s.node)).join(", ")}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  const calls: { url: string; at: number }[] = [];
  const scripts: Promise<{ raw: number; gzip: number }>[] = [];
  const t0 = Date.now();
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.startsWith("/widget/v1/") && req.method() !== "OPTIONS") calls.push({ url: `${req.method()} ${new URL(req.url()).pathname}${new URL(req.url()).search}`, at: Date.now() - t0 });
  });
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") {
      scripts.push(res.body().then((b) => ({ raw: b.length, gzip: gzipSync(b, { level: 9 }).length })).catch(() => ({ raw: 0, gzip: 0 })));
    }
  });
  await page.goto(url, { waitUntil: "commit" });
  // Interactive: a check-in day of the calendar is a button the guest can press.
  await page.locator('booking-widget td.open[data-date]').first().waitFor({ state: "visible", timeout: 30_000 });
  const interactiveAt = Date.now() - t0;
  const interactiveMs = Math.round(await page.evaluate(() => performance.now()));
  const before = calls.filter((c) => c.at <= interactiveAt);
  await page.waitForTimeout(1000); // late shifts count too
  const cls = Math.round((await page.evaluate(() => (window as any).__cls as number)) * 1000) / 1000;
  const shifts = await page.evaluate(() => (window as any).__shifts as string[]);
  const js = await Promise.all(scripts);
  const out = {
    apiRoundTrips: before.length,
    interactiveMs,
    cls,
    jsRawBytes: js.reduce((a, b) => a + b.raw, 0),
    jsGzipBytes: js.reduce((a, b) => a + b.gzip, 0),
    calls: before.map((c) => c.url),
    shifts,
  };
  await context.close();
  return out;
}
