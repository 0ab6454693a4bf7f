/**
 * `npm start`: the whole service on this machine, on local D1 and Durable Objects kept in
 * .wrangler/state (never wiped; STATE_DIR overrides it), migrated and seeded with the demo business.
 * PORT overrides 8787 (the URL is written to <state>/server.json for the staff CLI's links); DEVTOOLS=1 keeps wrangler's DevTools bridge for a debugger (it slows every request).
 * Ctrl-C or SIGTERM ends wrangler and workerd (their own process group) and then this process.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ensureDevVars } from "./lib/dev-vars";
import { runUpkeep, startServer, type RunningServer } from "./server";

/** How often `npm start` runs the scheduled upkeep: wrangler.toml's cron fires every 10 minutes. */
const UPKEEP_EVERY_MS = 10 * 60_000;

const port = Number(process.env.PORT ?? "8787");
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}".`);
  process.exit(2);
}

const log = (message: string) => console.log(`• ${message}`);

if (ensureDevVars().created) log("Created .dev.vars with a new random KEY_SIGNING_SECRET (git-ignored; keep it).");

let server: RunningServer | undefined;
/** <state>/server.json once the server answers (see below). */
let serverFile: string | undefined;
function forgetServerFile() {
  if (serverFile) rmSync(serverFile, { force: true });
}
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping the server ...`);
  forgetServerFile();
  await server?.stop();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGHUP", () => void shutdown("SIGHUP"));

try {
  server = await startServer({
    port,
    persistTo: process.env.STATE_DIR || undefined,
    buildWidget: true,
    inheritOutput: true,
    devtools: process.env.DEVTOOLS === "1",
    onStep: log,
  });
} catch (err) {
  console.error(`\nCould not start the service: ${(err as Error).message}`);
  process.exit(1);
}

/**
 * Where this server answers, for the CLIs of the same state (the staff CLI's invitation link):
 * <state>/server.json, removed again when it stops (a crash leaves the last port, still the best guess).
 */
serverFile = join(server.persistTo, "server.json");
writeFileSync(serverFile, `${JSON.stringify({ url: server.url, pid: process.pid })}\n`);

const u = server.url;
console.log(`
Booking platform is running on local D1 and Durable Objects (state in ${relative(process.cwd(), server.persistTo) || "."}).

  Back office      ${u}/admin               (an owner's invitation: npm run --silent staff -- invite --business demo --email <you> --role owner)
  Public API v2    ${u}/api/pub/v2          (Authorization: Bearer <public key>)
  Private API      ${u}/private             (Authorization: Bearer <private key>)
  Widget demo      ${u}/demo
  Widget script    ${u}/widget.js
  API docs         ${u}/docs
  OpenAPI          ${u}/openapi.json
  Health           ${u}/healthz${server.inspectorPort ? `\n  DevTools         chrome://inspect, "Configure...": 127.0.0.1:${server.inspectorPort}` : ""}

Make a key for the demo business:
  npm run --silent keys -- create --business demo --scope public --name my-site

E-mails stay on this machine (wrangler simulates sending; docs/email.md). See them with:
  npm run --silent mail -- list

Press Ctrl-C to stop. Request logs follow.
`);

// Local wrangler never fires cron triggers: run the upkeep (every cron of wrangler.toml) now, which
// also tidies what a crash of an earlier run left, and then on the trigger's period.
const upkeep = async () => {
  if (!stopping && server && !(await runUpkeep(server.url))) console.error("The scheduled upkeep failed; it runs again in 10 minutes.");
};
void upkeep();
setInterval(() => void upkeep(), UPKEEP_EVERY_MS).unref();

const code = await server.exited;
if (!stopping) {
  forgetServerFile();
  console.error(`wrangler dev exited (code ${code}).`);
  process.exit(code || 1);
}
