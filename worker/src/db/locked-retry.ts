/**
 * A local D1 database shared with another process (the command-line tools' database beside a
 * running `npm start`, worker/scripts/lib/cli-database.ts): what meets the other process's write
 * lock is tried again. No SQL of its own: it wraps D1's own statements, as db/plain-statements.ts does.
 */

/**
 * A batch or a statement that met the other process's lock. The runtime reports some of these as
 * its opaque "internal error; reference = ..." (seen in CI while an e2e server wrote and a journey
 * read beside it), or as its SQLite's failed assertion "false == true" (seen in CI as `npm run
 * catalog -- apply` beside the test's server; `wrangler d1 execute` meets it alike,
 * worker/scripts/lib/wrangler-d1.ts), never a half-done one: each is one transaction, so trying
 * again is safe.
 */
export const LOCKED = /false == true|SQLITE_BUSY|database is locked|internal error; reference = /i;

/** `run` again while it meets the other process's lock (LOCKED), up to five times in all. */
async function whileLocked<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 5 || !LOCKED.test(String((err as Error)?.message))) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

/**
 * `real`, whose batches and single statements are tried again when they meet the lock: a batch
 * is one transaction and a single statement its own, so one that failed changed nothing (CI saw
 * `npm run keys -- create` refused SQLITE_BUSY while an e2e server wrote). The statements it
 * prepares are its own; a batch hands the real ones to D1.
 */
export function retryingWhenLocked(real: D1Database): D1Database {
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const statement = (inner: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(inner, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (prop === "first" || prop === "run" || prop === "all" || prop === "raw") {
          return (...args: unknown[]) => whileLocked(() => (target as any)[prop](...args));
        }
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    realOf.set(wrapped, inner);
    return wrapped;
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (prop === "batch") return (statements: D1PreparedStatement[]) => whileLocked(() => target.batch(statements.map((s) => realOf.get(s) ?? s)));
      const v = (target as any)[prop];
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
