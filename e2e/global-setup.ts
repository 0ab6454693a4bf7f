import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Build widget.js once, before the servers start (they serve worker/public). */
export default function globalSetup(): void {
  mkdirSync(`${root}e2e/artifacts`, { recursive: true });
  if (process.env.E2E_SKIP_BUILD === "1") return;
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}
