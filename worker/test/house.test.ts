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
});
