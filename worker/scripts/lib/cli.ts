/** What the command-line tools share: argument parsing, the target database, the signing secret, errors. */
import { userInfo } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Actor } from "../../src/db/audit-log";
import { businessBySlug } from "../../src/db/businesses";
import type { Business } from "../../src/domain/catalog";
import { ApiError } from "../../src/lib/errors";
import { openDatabase } from "./cli-database";
import { ensureDevVars } from "./dev-vars";
import type { Target } from "./wrangler";
import { directoryBySlug, shardsOf } from "../../src/db/shards";

/** An error the user can act on: printed without a stack, exit code 1 (2 for usage). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** Options every command accepts. */
export const TARGET_OPTIONS = {
  remote: { type: "boolean" },
  "persist-to": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** Parse `argv` strictly: an unknown option or a stray argument is a usage error. */
export function parse<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O, usage: string) {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...TARGET_OPTIONS, ...options }, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${usage}`, 2);
  }
}

/** A required string option. */
export function required(values: Record<string, string | boolean | undefined>, name: string, usage: string): string {
  const v = values[name];
  if (typeof v !== "string" || v.trim() === "") throw new CliError(`Missing --${name}.\n\n${usage}`, 2);
  return v.trim();
}

export function targetOf(values: Record<string, string | boolean | undefined>): Target {
  if (values.remote && values["persist-to"]) throw new CliError("--remote and --persist-to exclude each other.", 2);
  return { remote: values.remote === true, persistTo: typeof values["persist-to"] === "string" ? values["persist-to"] : undefined };
}

/**
 * The secret keys are signed with: for the local database the one in `.dev.vars` (created if
 * missing, as `npm start` would), which is what the local server checks; for a deployed one the
 * KEY_SIGNING_SECRET environment variable, which must equal the Worker's secret.
 */
export function signingSecret(target: Target): string {
  if (target.remote) {
    const secret = process.env.KEY_SIGNING_SECRET;
    if (!secret) {
      throw new CliError(
        "KEY_SIGNING_SECRET is not set. For --remote, export the same secret you gave the deployed Worker\n" +
          "(`npx wrangler secret put KEY_SIGNING_SECRET`), e.g. `KEY_SIGNING_SECRET=... npm run --silent keys -- create ... --remote`.",
      );
    }
    return secret;
  }
  return ensureDevVars().vars.KEY_SIGNING_SECRET;
}

/**
 * Who a CLI's changes are made by, in the audit log (GET /private/audit, the back office's
 * Account screen): kind "cli", named by the CLI ("keys CLI"), with the operating-system user
 * who ran it as its id.
 */
export function cliActor(tool: string): Actor {
  let who = "unknown";
  try {
    who = userInfo().username;
  } catch {
    /* no user name: unknown */
  }
  return { kind: "cli", id: who, name: `${tool} CLI` };
}

/**
 * Run `work` on the target's database (lib/cli-database.ts: the very D1 the Worker uses, handed to
 * the Worker's own code in worker/src/manage/ and worker/src/db/), and close it after.
 */
export async function withDatabase<T>(target: Target, work: (db: D1Database) => Promise<T>): Promise<T> {
  const { db, close } = await openDatabase(target);
  try {
    return await work(db);
  } finally {
    await close();
  }
}

/**
 * Run `work` on every shard's database (DB, DB_SHARD_1, ...: an Env's D1 bindings, for
 * worker/src/db/shards.ts and manage/shards.ts), and close them after.
 */
export async function withShards<T>(target: Target, work: (shards: Pick<Env, "DB"> & Partial<Pick<Env, "DB_SHARD_1">>) => Promise<T>): Promise<T> {
  const { shards, close } = await openDatabase(target);
  try {
    return await work(shards as Pick<Env, "DB">);
  } finally {
    await close();
  }
}

/**
 * Run `work` on the database of the shard a business lives on (the directory on DB says which;
 * docs/design.md "Shards"), with the business, and close the databases after.
 */
export async function withBusiness<T>(target: Target, slug: string, work: (db: D1Database, business: Business) => Promise<T>): Promise<T> {
  const { db, shards, close } = await openDatabase(target);
  try {
    const entry = await directoryBySlug(db, slug);
    const shardDb = shardsOf(shards as Pick<Env, "DB">)[entry?.shard ?? 0] ?? db;
    return await work(shardDb, await businessOf(shardDb, slug));
  } finally {
    await close();
  }
}

/** The business of a slug, or the error that says how to find or make one. */
export async function businessOf(db: D1Database, slug: string): Promise<Business> {
  const business = await businessBySlug(db, slug);
  if (!business) throw new CliError(`Unknown business "${slug}". See \`npm run --silent business -- list\`, or create it with \`npm run --silent business -- create\`.`);
  return business;
}

/** A refusal of manage/ (an ApiError: 404, 409, 422) told as the CLI's error, with each field's message. */
export function explainApiError(err: unknown): never {
  if (err instanceof ApiError) {
    const lines = err.extra.errors?.map((e) => `  ${e.path}: ${e.message}`) ?? [];
    throw new CliError(lines.length ? `${err.message.split(":")[0]}:\n${lines.join("\n")}` : err.message);
  }
  throw err;
}

/** Run a command's main function: CliErrors print their message, anything else its stack. */
export async function runCli(main: () => Promise<void>): Promise<void> {
  // A reader that stops early (`npm run mail -- list | head`) closes the pipe: that is the
  // reader's choice, not an error of the command, so it ends quietly (as `ls | head` does).
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  try {
    await main();
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`error: ${err.message}`);
      process.exitCode = err.exitCode;
    } else {
      console.error(`error: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  }
}
