/**
 * `.dev.vars`: the local Worker's secrets (git-ignored). Created on first run with a random
 * KEY_SIGNING_SECRET, so every clone signs its keys with its own secret.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler";

export const DEV_VARS = join(ROOT, ".dev.vars");

/** KEY=VALUE lines (dotenv style): `#` comments, optional single or double quotes. */
export function parseVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2].trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    vars[m[1]] = value;
  }
  return vars;
}

/** Render vars as a dotenv file wrangler reads. */
export function formatVars(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([k, v]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`Invalid variable name: ${k}`);
      if (/[\r\n"\\]/.test(v)) throw new Error(`The value of ${k} may not contain quotes, backslashes or line breaks.`);
      return `${k}="${v}"\n`;
    })
    .join("");
}

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Make sure `.dev.vars` exists and holds a KEY_SIGNING_SECRET; returns its variables and whether
 * it had to be created or completed. Never changes an existing secret: keys signed with it must
 * keep working.
 */
export function ensureDevVars(): { vars: Record<string, string>; created: boolean } {
  if (!existsSync(DEV_VARS)) {
    writeFileSync(
      DEV_VARS,
      "# Local secrets and settings of the Worker for `wrangler dev` (git-ignored; made by `npm start`).\n" +
        "# KEY_SIGNING_SECRET signs API keys: changing it invalidates every local key.\n" +
        "# SECRETS_KEY seals the businesses' Stripe secrets at rest: changing it makes them unreadable.\n" +
        formatVars({ KEY_SIGNING_SECRET: newSecret(), SECRETS_KEY: newSecret(), ALLOW_LOOPBACK_WEBHOOKS: "true", TRUST_CF_CONNECTING_IP: "false" }),
      { mode: 0o600 },
    );
    return { vars: parseVars(readFileSync(DEV_VARS, "utf8")), created: true };
  }
  const vars = parseVars(readFileSync(DEV_VARS, "utf8"));
  const missing: Record<string, string> = {};
  if (!vars.KEY_SIGNING_SECRET) missing.KEY_SIGNING_SECRET = newSecret();
  if (!vars.SECRETS_KEY) missing.SECRETS_KEY = newSecret();
  if (Object.keys(missing).length) {
    appendFileSync(DEV_VARS, `\n${formatVars(missing)}`);
    return { vars: { ...vars, ...missing }, created: true };
  }
  return { vars, created: false };
}
