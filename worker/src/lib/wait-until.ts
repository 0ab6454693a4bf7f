import type { Context } from "hono";
import type { AppEnv } from "../env";

/** Keeps `promise` running after the answer is sent (and when the client goes away), where the runtime offers it. */
export function waitUntil(c: Context<AppEnv>, promise: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    promise.catch(() => undefined);
  }
}
