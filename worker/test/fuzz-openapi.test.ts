import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { widgetRoutes } from "../src/routes/widget";
import { unknownKeywords } from "./fuzz-schema";
import { listOperations, mutatedRequest, validRequest, widgetOperations, type FuzzRequest, type Operation } from "./fuzz-requests";
import { describeFailure, FUZZ_RUNS, FUZZ_SEED, judge, loadDocument, prepareFixture, send, undocumented, type Fixture } from "./fuzz-harness";

// Property-based fuzzing of every operation the Worker documents in /openapi.json: requests are
// generated from the document itself, so a new route is fuzzed the moment it is documented.
const doc = await loadDocument();
const operations = listOperations(doc);
let fx: Fixture;
/** Requests that took over a second: hostile input must not buy much server time either. */
const slow: string[] = [];

beforeAll(async () => {
  fx = await prepareFixture(doc);
});

afterAll(() => {
  // Not failures, but worth a look: statuses the document does not list, keywords the checker skipped.
  if (undocumented.size) {
    console.warn(`fuzz: undocumented statuses: ${[...undocumented].map(([op, s]) => `${op} → ${[...s].join(",")}`).join("; ")}`);
  }
  if (slow.length) console.warn(`fuzz: slow answers:\n  ${slow.join("\n  ")}`);
  if (unknownKeywords.size) console.warn(`fuzz: schema keywords not checked: ${[...unknownKeywords].join(", ")}`);
});

async function property(op: Operation, arb: fc.Arbitrary<FuzzRequest>, runs: number) {
  await fc.assert(
    fc.asyncProperty(arb, async (req) => {
      const t0 = Date.now();
      const sent = await send(op, req, fx);
      const ms = Date.now() - t0;
      if (ms > 1000) slow.push(`${ms} ms: ${op.method} ${sent.url.slice(0, 120)} ${req.mutation ?? ""} → ${sent.status}`);
      const problems = judge(doc, op, sent);
      if (problems.length) throw new Error(describeFailure(op, req, sent, problems));
    }),
    // Shrinking is kept short: a counterexample within seconds beats the smallest one in minutes.
    { numRuns: runs, seed: FUZZ_SEED, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false },
  );
}

describe("the OpenAPI document", () => {
  it("documents the public and private operations it serves", () => {
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(operations.some((op) => op.door === "public")).toBe(true);
  });
});

describe.each(operations.map((op) => [op.id, op] as const))("fuzz %s", (_id, op) => {
  it("answers generated valid requests without a 5xx, with documented shapes", async () => {
    await property(op, validRequest(doc, op, fx.hints), FUZZ_RUNS);
  });
  it("answers hostile requests with a problem+json 4xx, never a 5xx", async () => {
    await property(op, mutatedRequest(doc, op, fx.hints), FUZZ_RUNS * 2);
  });
});

// The same handlers through the widget's door (origin allowed, no key), and its own two reads.
describe.each(widgetOperations(operations, widgetRoutes().routes).map((op) => [op.id, op] as const))("fuzz widget %s", (_id, op) => {
  it("answers valid and hostile requests without a 5xx, errors as problem+json", async () => {
    await property(op, validRequest(doc, op, fx.hints), Math.max(1, Math.ceil(FUZZ_RUNS / 2)));
    await property(op, mutatedRequest(doc, op, fx.hints), FUZZ_RUNS);
  });
});
