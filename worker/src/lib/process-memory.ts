/**
 * What one Worker process keeps in memory between requests: the maps and sets of the modules
 * that remember something read from D1 or counted on the way (the door's business, the directory,
 * catalog snapshots, kept answers, rate-limit leases). Each is registered here when its module
 * loads, so that all of them can be forgotten at once, as a new isolate starts with none of them.
 *
 * The worker tests run many test files, one after another, in one isolate
 * (worker/vitest.config.ts, `isolate: false`), and start each file on empty storage
 * (cloudflare:test `reset()`): ids then repeat from file to file, so each file also starts
 * with what a fresh isolate would hold (worker/test/setup.ts). worker/test/house.test.ts makes
 * sure no module keeps a map or a set outside this registry, except pure memos (a value that
 * depends on its key alone).
 */
const stores = new Set<{ clear(): void }>();

/** Register a module's store (a Map, a Set, KeptAnswers...) and return it. */
export function processMemory<T extends { clear(): void }>(store: T): T {
  stores.add(store);
  return store;
}

/** Forget everything every registered store holds, as a fresh isolate would have none of it. */
export function forgetProcessMemory(): void {
  for (const store of stores) store.clear();
}
