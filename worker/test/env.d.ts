import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../src/env";

// The test's `env` (cloudflare:test) is the Worker's Env plus what the vitest config binds.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
