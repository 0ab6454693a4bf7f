/**
 * What the local send_email binding was really handed, readable from tests inside workerd.
 *
 * Miniflare's binding (miniflare/dist/src/workers/email/send_email.worker.js) checks each message
 * and writes it, raw, to `<os tmpdir>/miniflare-<random>/files/email/<uuid>.eml`. The vitest
 * config points the run's TMPDIR at a directory of its own (BW_MAIL_TMPDIR); this globalSetup
 * serves the .eml files found there on loopback:
 *   GET /mail?message_id=<id>   every message handed over with that Message-ID: [{file, raw}]
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    mailFilesPort: number;
  }
}

let server: Server | undefined;

/** Every .eml file the binding wrote under `root`. */
function emlFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory() || !dir.name.startsWith("miniflare-")) continue;
    const mail = join(root, dir.name, "files", "email");
    try {
      for (const f of readdirSync(mail)) if (f.endsWith(".eml")) out.push(join(mail, f));
    } catch {
      /* no e-mail yet */
    }
  }
  return out;
}

export default async function setup(project: TestProject) {
  const root = process.env.BW_MAIL_TMPDIR;
  if (!root) throw new Error("BW_MAIL_TMPDIR is not set (worker/vitest.config.ts sets it)");
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const id = url.searchParams.get("message_id") ?? "";
    const found = emlFiles(root)
      .map((file) => ({ file, raw: readFileSync(file, "utf8") }))
      .filter((m) => id !== "" && new RegExp(`^Message-ID: ${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\r?$`, "mi").test(m.raw));
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(found));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  project.provide("mailFilesPort", (server.address() as { port: number }).port);
  return async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(root, { recursive: true, force: true });
  };
}
