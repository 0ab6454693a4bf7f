/**
 * The Worker's startup against another commit's, measured in turn so that a loaded machine weighs
 * on both alike (docs/benchmarks.md "Startup"). Both bundles are built as `wrangler deploy` would
 * build them; each round measures each once, in alternating order: `wrangler check startup` (the
 * length of its CPU profile) and the bundle evaluated in a fresh Node process (`cloudflare:*`
 * imports stubbed; wall and CPU time, the CPU time being the steadiest on a busy machine). Prints
 * the medians and the median of each round's ratio, new over old.
 *
 * `npx tsx e2e/bench/startup-compare.ts <commit> [rounds]` (default 10 rounds).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, WRANGLER, wranglerEnv } from "../../worker/scripts/lib/wrangler";

interface Side {
  label: string;
  bundle: string;
  script: string;
  check: number[];
  wall: number[];
  cpu: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Evaluates a module in this process and prints its wall and CPU milliseconds. */
const EVALUATE = `
const cpu0 = process.cpuUsage(); const t0 = performance.now();
await import(process.argv[1]);
const wall = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1000 }));`;

function build(label: string, dir: string, work: string): Side {
  const opts = { cwd: dir, env: wranglerEnv(), stdio: "ignore" as const };
  const bundle = join(work, `${label}.bundle`);
  execFileSync(WRANGLER, ["deploy", "--dry-run", "--outfile", bundle], opts);
  execFileSync(WRANGLER, ["deploy", "--dry-run", "--outdir", join(work, label)], opts);
  // Node has no cloudflare:* modules: the classes the bundle extends are stood in for.
  const code = readFileSync(join(work, label, "index.js"), "utf8")
    .replace(/import \{ DurableObject( as (\w+))? \} from "cloudflare:workers";/g, (_m, _a, name?: string) => `const ${name ?? "DurableObject"} = class {};`)
    .replace(/import \{ EmailMessage \} from "cloudflare:email";/g, "const EmailMessage = class {};");
  const script = join(work, `${label}.mjs`);
  writeFileSync(script, code);
  return { label, bundle, script, check: [], wall: [], cpu: [] };
}

function measure(side: Side, work: string) {
  const profile = join(work, "startup.cpuprofile");
  execFileSync(WRANGLER, ["check", "startup", "--worker", side.bundle, "--outfile", profile], { cwd: ROOT, env: wranglerEnv(), stdio: "ignore" });
  const { startTime, endTime } = JSON.parse(readFileSync(profile, "utf8")) as { startTime: number; endTime: number };
  side.check.push((endTime - startTime) / 1000);
  const { wall, cpu } = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", EVALUATE, side.script], { encoding: "utf8" })) as { wall: number; cpu: number };
  side.wall.push(wall);
  side.cpu.push(cpu);
}

const [commit, roundsArg] = process.argv.slice(2);
if (!commit) {
  console.error("usage: npx tsx e2e/bench/startup-compare.ts <commit> [rounds]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 10);
const work = mkdtempSync(join(tmpdir(), "startup-compare-"));
try {
  // The other commit's tree, with this checkout's dependencies.
  const tree = join(work, "tree");
  mkdirSync(tree);
  execFileSync("sh", ["-c", `git -C "${ROOT}" archive "${commit}" | tar -x -C "${tree}"`]);
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  const sides = [build("old", tree, work), build("new", ROOT, work)];
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) measure(side, work);
    console.error(`round ${round + 1}: ` + sides.map((s) => `${s.label} ${s.check.at(-1)!.toFixed(0)} ms, node ${s.cpu.at(-1)!.toFixed(0)} ms CPU`).join("; "));
  }
  const [old, now] = sides;
  const ratio = (key: "check" | "wall" | "cpu") => median(now[key].map((v, i) => v / old[key][i])).toFixed(2);
  const row = (key: "check" | "wall" | "cpu", what: string) =>
    `${what}: ${median(old[key]).toFixed(0)} -> ${median(now[key]).toFixed(0)} ms (medians), new/old ${ratio(key)} (median of the rounds' ratios)`;
  console.log(`${rounds} rounds, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  console.log(row("check", "wrangler check startup"));
  console.log(row("wall", "evaluated in Node, wall"));
  console.log(row("cpu", "evaluated in Node, CPU"));
} finally {
  rmSync(work, { recursive: true, force: true });
}
