/**
 * The public API v2's router, built on its first use (routes/lazy.ts says why): its modules, and
 * the schemas of the contracts only it uses, are evaluated then, not at the isolate's startup.
 * Mounted twice, at /api/pub/v2 (index.ts) and in the widget's proxy (routes/widget.ts), and read
 * by the OpenAPI description. The router is kept as a plain value of the process once built,
 * never the promise of it: two first requests at once each import (the module is evaluated once)
 * and the first to finish is kept.
 */
import type { publicApi } from "./public";

let built: ReturnType<typeof publicApi> | undefined;

export async function loadPublicApi(): Promise<ReturnType<typeof publicApi>> {
  if (built) return built;
  const { publicApi: make } = await import("./public");
  return (built ??= make());
}
