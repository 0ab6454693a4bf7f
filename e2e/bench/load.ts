/**
 * Load generation with autocannon, loopback only, bounded in time. One call measures one
 * scenario; a flow (add to cart, then check out) also records each step's latency itself,
 * because autocannon's histogram mixes the steps of a sequence.
 */
// @ts-expect-error autocannon ships no types; the few fields used are typed below.
import autocannon from "autocannon";

export interface Step {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path, or a function of the connection's context (ids from earlier steps). */
  path: string | ((ctx: Record<string, any>) => string);
  body?: (ctx: Record<string, any>) => unknown;
  headers?: Record<string, string>;
  /** Read what later steps need (a cart id) from the response. */
  capture?: (status: number, body: string, ctx: Record<string, any>) => void;
  /** Name under which this step's own latencies are kept (flows). */
  timed?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** One request repeated, or a sequence each connection runs over and over. */
  steps: Step[];
  headers?: Record<string, string>;
}

export interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** Latency percentiles of each timed step, in ms. */
  steps: Record<string, { count: number; p50: number; p99: number; max: number }>;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

export async function load(opts: LoadOptions): Promise<LoadResult> {
  const timings: Record<string, number[]> = {};
  const requests = opts.steps.map((step) => {
    const dynamic = typeof step.path === "function" || step.body || step.timed;
    // autocannon calls setupRequest/onResponse when the keys exist, even when undefined.
    const req: Record<string, unknown> = {
      method: step.method,
      path: typeof step.path === "string" ? step.path : "/",
      headers: { ...opts.headers, ...step.headers, ...(step.body ? { "content-type": "application/json" } : {}) },
      setupRequest: dynamic
        ? (req: Record<string, any>, ctx: Record<string, any>) => {
            const out = { ...req };
            if (typeof step.path === "function") out.path = step.path(ctx);
            if (step.body) out.body = JSON.stringify(step.body(ctx));
            if (step.timed) ctx[`t:${step.timed}`] = performance.now();
            return out;
          }
        : undefined,
      onResponse:
        step.capture || step.timed
          ? (status: number, body: string, ctx: Record<string, any>) => {
              if (step.timed) (timings[step.timed] ??= []).push(performance.now() - ctx[`t:${step.timed}`]);
              step.capture?.(status, body, ctx);
            }
          : undefined,
    };
    for (const k of Object.keys(req)) if (req[k] === undefined) delete req[k];
    return req;
  });
  const result: any = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    pipelining: 1,
    timeout: 10,
    requests,
  });
  const statuses: Record<string, number> = {};
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = Number((v as { count: number }).count);
  const steps: LoadResult["steps"] = {};
  for (const [name, list] of Object.entries(timings)) {
    const sorted = [...list].sort((a, b) => a - b);
    steps[name] = { count: sorted.length, p50: round(pct(sorted, 50)), p99: round(pct(sorted, 99)), max: round(sorted[sorted.length - 1] ?? 0) };
  }
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    rps: round(total / (result.duration || opts.seconds)),
    requests: total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
    steps,
  };
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
