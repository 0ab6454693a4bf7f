/// <reference types="vite/client" />
import { DurableObject } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// worker/src/durable/ holds Durable Object classes and nothing else (the layer rules of
// worker/layers.cjs keep the imports in order; this keeps the room's contents).
const modules = import.meta.glob<Record<string, unknown>>("../src/durable/*.ts", { eager: true });

// SQL lives in worker/src/db/ only (and the schema in worker/migrations/): dependency-cruiser sees
// imports, not SQL text, so this reads the text of every other source file, the CLIs' included
// (worker/scripts/ runs the Worker's manage/ and db/ code; its lib/ hands their statements to D1
// and writes none of its own).
const sources = import.meta.glob<string>(["../src/**/*.{ts,tsx}", "!../src/db/**", "../scripts/**/*.ts"], { query: "?raw", import: "default", eager: true });

/** What SQL looks like; none of them matches the prose or code of the files outside db/. */
const SQL: [string, RegExp][] = [
  ["a prepared statement", /\.prepare\(/],
  ["SELECT", /\bSELECT\b/],
  ["INSERT", /\bINSERT\s+(OR\s+\w+\s+)?INTO\b/],
  ["UPDATE", /\bUPDATE\s+\w+\s+SET\b/],
  ["DELETE", /\bDELETE\s+FROM\b/],
  ["FROM a table", /\bFROM\s+[a-z_]+\b/],
  ["WHERE", /\bWHERE\b/],
  ["ORDER BY", /\bORDER\s+BY\b/],
  ["a JSON function", /\bjson_(each|extract)\(/],
  ["a collation", /\bCOLLATE\s+NOCASE\b/],
  ["IS NULL", /\bIS\s+(NOT\s+)?NULL\b/],
  ["COALESCE", /\bCOALESCE\(/],
  // "= ?" and the like (not a MIME encoded word, "=?UTF-8?B?...?=").
  ["a bound parameter", /[=<>]\s*\?(?=[\s,;)"'`]|$)/],
];

/** Files that still hold SQL, each with the reason; an entry whose file holds none must go. */
const SQL_ALLOWED: Record<string, string> = {};

// What a module keeps between requests (a top-level Map, Set or KeptAnswers) is registered in
// lib/process-memory.ts, so each test file can start with what a fresh isolate holds
// (worker/test/setup.ts). Pure memos, whose value depends on their key alone, are the exception.
const allSources = import.meta.glob<string>(["../src/**/*.{ts,tsx}", "!../src/**/*.test.ts"], { query: "?raw", import: "default", eager: true });
// An empty Map or Set made at load (a table of constants is made with its values), or kept answers.
const KEPT = /^(?:export )?(?:const|let) (\w+)(?:\s*:[^=]+)?\s*=\s*new (?:(?:Map|Set)(?:<.*>)?\(\)|KeptAnswers\()/;
const PURE_MEMOS: Record<string, string> = {
  "worker/src/lib/time.ts numbers": "a date text's day number",
  "worker/src/lib/time.ts texts": "a day number's date text",
  "worker/src/lib/time.ts dayFormats": "a time zone's formatter",
  "worker/src/domain/email/booking.ts formatters": "a language's (and currency's, zone's) Intl formatter for e-mails",
  "worker/src/domain/money.ts digitsSeen": "a currency's minor digits",
  "worker/src/domain/package-quote.ts realDates": "dates that exist in the calendar",
  "worker/src/middleware/auth.ts verified": "a token's verified signature, under the secret it was checked with",
  "worker/src/lib/process-memory.ts stores": "the registry itself: the modules' stores, not what they hold",
};

function sqlIn(text: string): string[] {
  return text.split("\n").flatMap((line, i) => SQL.filter(([, re]) => re.test(line)).map(([what]) => `${i + 1}: ${what}: ${line.trim().slice(0, 120)}`));
}

describe("the house", () => {
  it("durable/ holds only Durable Object classes", () => {
    const files = Object.keys(modules);
    expect(files.length).toBeGreaterThanOrEqual(3);
    const strays = files.flatMap((file) =>
      Object.entries(modules[file])
        .filter(([, value]) => !(typeof value === "function" && value.prototype instanceof DurableObject))
        .map(([name]) => `${file}: ${name}`),
    );
    expect(strays).toEqual([]);
  });

  it("SQL is written in db/ only (and the migrations), nowhere else in worker/src or the CLIs", () => {
    const files = Object.keys(sources).map((key) => [key.replace(/^\.\.\//, "worker/"), sources[key]] as const);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some(([file]) => file.startsWith("worker/scripts/"))).toBe(true);
    const found = Object.fromEntries(files.filter(([file]) => !(file in SQL_ALLOWED)).map(([file, text]) => [file, sqlIn(text)]).filter(([, hits]) => hits.length));
    expect(found).toEqual({});
    const stale = Object.keys(SQL_ALLOWED).filter((file) => !files.some(([f, text]) => f === file && sqlIn(text).length));
    expect(stale, "allowed files that hold no SQL any more: remove them from SQL_ALLOWED").toEqual([]);
  });

  it("a module's memory between requests is registered to be forgotten (lib/process-memory.ts), or is a pure memo", () => {
    const files = Object.keys(allSources).map((key) => [key.replace(/^\.\.\//, "worker/"), allSources[key]] as const);
    expect(files.length).toBeGreaterThan(100);
    const unregistered = files.flatMap(([file, text]) =>
      text.split("\n").flatMap((line) => {
        const name = KEPT.exec(line)?.[1];
        return name && !(`${file} ${name}` in PURE_MEMOS) ? [`${file} ${name}`] : [];
      }),
    );
    expect(unregistered, "wrap it in processMemory(...) (lib/process-memory.ts), or list it in PURE_MEMOS with why").toEqual([]);
    const stale = Object.keys(PURE_MEMOS).filter((entry) => !files.some(([file, text]) => text.split("\n").some((line) => `${file} ${KEPT.exec(line)?.[1]}` === entry)));
    expect(stale, "PURE_MEMOS entries that no longer exist").toEqual([]);
  });
});
