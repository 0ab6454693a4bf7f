/**
 * What the deployed bundle has in place of zod's index of its 64 locales (wrangler.toml [alias]):
 * English only, the messages this service answers with (zod registers English itself, from its
 * own en.js, so this changes no message). Without it the bundle carried 360 kB of other
 * languages' messages, parsed at every isolate's startup for nothing: the code reaches zod
 * through the `z` namespace, which the bundler cannot shake (docs/benchmarks.md).
 */
export { default as en } from "zod/v4/locales/en.js";
