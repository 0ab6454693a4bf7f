
/** Keeps `promise` running after the answer is sent (and when the client goes away), where the runtime offers it. */
export function waitUntil(c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } }, promise: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    promise.catch(() => undefined);
  }
}

/** The request's execution context, to hand to another app's fetch; none where there is none (a test's app.request()). */
export function executionCtxOf<C extends { executionCtx: unknown }>(c: C): C["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
