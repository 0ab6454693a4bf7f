/**
 * The widget's own numbers, measured on /demo in a real browser (headless Chromium): API round
 * trips before the calendar is interactive (target 1), time to an interactive calendar, the
 * size of widget.js and of what the first screen fetches; and the cumulative layout shift of a
 * site owner's page built from the embed snippet exactly as the back office's Widget screen prints
 * it (lib/embed.ts; no product attribute, so its first screen is the business's product list), on
 * another origin with a strict CSP (e2e/host-page.ts, as e2e/host-page.spec.ts tests it), as a
 * visitor sees it: on a desktop (1280×800, a broadband line) and on a phone (390×844, PHONE
 * below), with widget.js on time and 300 ms late. Measured on a loopback server
 * with no latency, the page would be painted only after the widget had drawn, and a shift of the
 * host page would never show (the bench used to report 0 where visitors saw 0.18 and 0.29): the
 * network is shaped so that the page paints first, as it does for a visitor.
 *
 * Run alone: `npx tsx e2e/bench/widget.ts` (prints JSON). `npm run bench` includes it.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { ROOT, startServer } from "../../worker/scripts/server";
import { embedCsp, embedSnippet } from "../../worker/src/lib/embed";
import { CHROMIUM_ARGS, chromiumPath } from "../chromium";
import { hostPage, type HostPage } from "../host-page";

/** Layout shift of the host page, per screen, with widget.js on time and 300 ms late (median of the runs). */
export interface HostPageShift {
  onTime: number;
  late300ms: number;
}

export interface WidgetNumbers {
  runs: number;
  apiRoundTrips: number;
  interactiveMs: number;
  /** The desktop's layout shift with widget.js on time (= clsHostPage.desktop.onTime). */
  cls: number;
  /** JavaScript the first screen fetches (before the first API answer), raw and gzipped. */
  jsRawBytes: number;
  jsGzipBytes: number;
  /** widget.js alone, gzipped (budget: 20 kB), and every chunk beside it together (fetched on demand). */
  widgetJsGzipBytes: number;
  chunksGzipBytes: number;
  /** The API calls of the first run, in order, for the report. */
  calls: string[];
  /** The layout shifts of the first desktop run with widget.js late: value, time and what moved. */
  shifts: string[];
  /** The layout shift of the page built from the Widget screen's snippet (strict CSP), as a visitor sees it. */
  clsHostPage: { desktop: HostPageShift; phone: HostPageShift };
  /** The same page on PHONE: median time to an interactive calendar, and its layout shift (widget.js on time). */
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

/** A visitor on a laptop: 1280×800, 40 ms round trips, 10 Mbit/s down. */
export const DESKTOP = {
  label: "1280×800, 40 ms RTT, 10 Mbit/s",
  context: { viewport: { width: 1280, height: 800 } },
  cpuSlowdown: 1,
  network: { offline: false, latency: 40, downloadThroughput: (10e6 / 8) | 0, uploadThroughput: (5e6 / 8) | 0 },
};

type Profile = typeof PHONE | typeof DESKTOP;
type Load = Omit<WidgetNumbers, "runs" | "phone" | "clsHostPage" | "widgetJsGzipBytes" | "chunksGzipBytes">;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** `port`: where to start the demo; a free port when not given. */
export async function measureWidget(opts: { port?: number; runs?: number; log?: (m: string) => void }): Promise<WidgetNumbers> {
  const log = opts.log ?? (() => {});
  const persistTo = join(ROOT, ".wrangler", "bench", "widget-run");
  rmSync(persistTo, { recursive: true, force: true });
  log("widget: building and starting the demo ...");
  const server = await startServer({ port: opts.port, persistTo, prepare: true, buildWidget: true });
  let browser: Browser | undefined;
  let site: HostPage | undefined;
  try {
    try {
      browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    } catch (err) {
      throw new Error(`no Chromium to measure the widget with (set CHROMIUM_PATH, or apt-get install chromium, or npx playwright install chromium): ${(err as Error).message.split("\n")[0]}`);
    }
    const runs = opts.runs ?? 3;
    const url = `${server.url}/demo`;
    site = await hostPage({ snippet: embedSnippet(server.url, "demo"), cspLines: embedCsp(server.url) });
    const series = async (profile: Profile, lateMs: number, on = url, ready = CALENDAR_READY) => {
      const out: Load[] = [];
      for (let i = 0; i < runs; i++) out.push(await measureOnce(browser!, on, profile, lateMs, ready));
      return out;
    };
    const desktop = await series(DESKTOP, 0);
    const phone = await series(PHONE, 0);
    // the snippet's page: its first screen is the product list
    const snippetDesktop = await series(DESKTOP, 0, site.url, LIST_READY);
    const snippetDesktopLate = await series(DESKTOP, 300, site.url, LIST_READY);
    const snippetPhone = await series(PHONE, 0, site.url, LIST_READY);
    const snippetPhoneLate = await series(PHONE, 300, site.url, LIST_READY);
    const cls = (loads: Load[]) => median(loads.map((r) => r.cls));
    const publicDir = join(ROOT, "worker", "public");
    const chunks = readdirSync(publicDir).filter((f) => /^widget-.*\.js$/.test(f));
    return {
      runs,
      apiRoundTrips: median(desktop.map((r) => r.apiRoundTrips)),
      interactiveMs: median(desktop.map((r) => r.interactiveMs)),
      cls: cls(desktop),
      jsRawBytes: median(desktop.map((r) => r.jsRawBytes)),
      jsGzipBytes: median(desktop.map((r) => r.jsGzipBytes)),
      widgetJsGzipBytes: gzipped(join(publicDir, "widget.js")),
      chunksGzipBytes: chunks.reduce((n, f) => n + gzipped(join(publicDir, f)), 0),
      calls: desktop[0].calls,
      shifts: snippetDesktopLate[0].shifts,
      clsHostPage: { desktop: { onTime: cls(snippetDesktop), late300ms: cls(snippetDesktopLate) }, phone: { onTime: cls(snippetPhone), late300ms: cls(snippetPhoneLate) } },
      phone: { interactiveMs: median(phone.map((r) => r.interactiveMs)), cls: cls(phone) },
    };
  } finally {
    await site?.close();
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

/** The first screen is there: a check-in day of the calendar the guest can press (/demo), or a product of the list (the snippet's page). */
const CALENDAR_READY = "booking-widget td.open[data-date]";
const LIST_READY = "booking-widget article.card button";

/** One cold load of a page under a profile's screen and network, widget.js `lateMs` late, until `ready` shows. */
async function measureOnce(browser: Browser, url: string, profile: Profile, lateMs: number, ready: string): Promise<Load> {
  const context = await browser.newContext(profile.context); // cold cache each time
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (profile.cpuSlowdown > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", profile.network);
  if (lateMs) {
    await page.route("**/widget.js", async (route) => {
      await new Promise((done) => setTimeout(done, lateMs));
      await route.continue();
    });
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
  let answered = false; // the first API answer: what the first screen waits for
  const t0 = Date.now();
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.startsWith("/widget/v1/") && req.method() !== "OPTIONS") calls.push({ url: `${req.method()} ${new URL(req.url()).pathname}${new URL(req.url()).search}`, at: Date.now() - t0 });
  });
  page.on("response", (res) => {
    if (new URL(res.url()).pathname.startsWith("/widget/v1/")) answered = true;
    if (res.request().resourceType() === "script" && !answered) {
      scripts.push(res.body().then((b) => ({ raw: b.length, gzip: gzipSync(b, { level: 9 }).length })).catch(() => ({ raw: 0, gzip: 0 })));
    }
  });
  await page.goto(url, { waitUntil: "commit" });
  // Interactive: the first screen's control the guest can press.
  await page.locator(ready).first().waitFor({ state: "visible", timeout: 60_000 });
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
