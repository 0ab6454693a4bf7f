
/** Keeps `promise` running after the answer is sent (and when the client goes away), where the runtime offers it. */
export function waitUntil(c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } }, promise: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    promise.catch(() => undefined);
  }
}
