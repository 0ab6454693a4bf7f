/**
 * `npm run build:docs`: puts Scalar's standalone bundle (the /docs renderer, from the pinned
 * @scalar/api-reference) where the Worker serves it, worker/public/docs/scalar.js, so that /docs
 * loads nothing from another host.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./lib/wrangler";

const source = join(ROOT, "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
const target = join(ROOT, "worker", "public", "docs", "scalar.js");
mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
console.log(`/docs renderer: ${target}`);
