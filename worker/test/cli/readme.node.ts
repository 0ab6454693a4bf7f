/**
 * The README is the front door (the developers' guide): at most 10 kB, the two commands, and
 * links into docs/ that lead somewhere. Merges that each added a line took it past the limit once.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../../scripts/lib/wrangler";

const readme = readFileSync(join(ROOT, "README.md"));
const text = readme.toString("utf8");

describe("the README", () => {
  it("is at most 10 kB", () => {
    assert.ok(readme.byteLength <= 10_000, `README.md is ${readme.byteLength} bytes`);
  });

  it("names the two commands, the embed snippet and wrangler deploy", () => {
    for (const needed of ["npm install && npm start", "npm test", "<booking-widget", "wrangler deploy"]) assert.ok(text.includes(needed), `missing: ${needed}`);
  });

  it("links only to files that exist, and their sections where it names one", () => {
    const links = [...text.matchAll(/\]\(((?:docs\/)?[\w./-]+\.md)(?:#([\w-]+))?\)/g)];
    assert.ok(links.length >= 8, `${links.length} links`);
    for (const [, file, anchor] of links) {
      assert.ok(existsSync(join(ROOT, file)), `${file} does not exist`);
      if (!anchor) continue;
      const headings = readFileSync(join(ROOT, file), "utf8").split("\n").filter((l) => /^#{1,6} /.test(l));
      const slugs = headings.map((h) => h.replace(/^#+ /, "").trim().toLowerCase().replace(/[^\w\s-]/g, "").replace(/\s/g, "-"));
      assert.ok(slugs.includes(anchor), `${file}#${anchor}: no such heading`);
    }
  });
});
