/**
 * `npm run build:docs`: puts Scalar's standalone bundle (the /docs renderer) where the Worker serves
 * it, worker/public/docs/scalar.js, so that /docs loads nothing from another host.
 *
 * The bundle is one prebuilt file of @scalar/api-reference. Installing that package would bring
 * some 300 packages of its build (+37 s on a fresh `npm ci`) for a file that needs none of them,
 * so this fetches the pinned release's tarball alone from the npm registry (`npm pack`), checks it
 * against the integrity pinned below, and keeps the file in .cache/ for the next builds.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./lib/wrangler";

/** The release of @scalar/api-reference whose bundle /docs serves, and its registry integrity. */
const SCALAR = {
  version: "1.72.1",
  integrity: "sha512-XpEJ0rfc/cXbCrR+iC4kK0o/WwX2dTtGQbT049OlPKAHD6IMIFdTeGz2r+M27P2EDWKyUITRm/NzlP8z2pw/Ow==",
};
const FILE = "package/dist/browser/standalone.js";

const cached = join(ROOT, ".cache", `scalar-api-reference-${SCALAR.version}`, "standalone.js");
const target = join(ROOT, "worker", "public", "docs", "scalar.js");

if (!existsSync(cached)) {
  const work = mkdtempSync(join(tmpdir(), "scalar-"));
  try {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", `@scalar/api-reference@${SCALAR.version}`, "--json", "--pack-destination", work], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
    ) as { filename: string; integrity: string }[];
    if (packed[0]?.integrity !== SCALAR.integrity) {
      throw new Error(`@scalar/api-reference@${SCALAR.version} does not match its pinned integrity (got ${packed[0]?.integrity}).`);
    }
    execFileSync("tar", ["-xzf", join(work, packed[0].filename), "-C", work, FILE]);
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(join(work, FILE), cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
mkdirSync(dirname(target), { recursive: true });
copyFileSync(cached, target);
console.log(`/docs renderer: Scalar ${SCALAR.version} -> ${target}`);
