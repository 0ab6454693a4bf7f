import type { D1Migration } from "cloudflare:test";

// The test's `env` (cloudflare:test) is the Worker's Env (worker/worker-configuration.d.ts) plus
// what the vitest config binds.
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
