import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { widgetRoutes } from "../src/routes/widget";
import { unknownKeywords } from "./fuzz-schema";
import { validRequests, type Door, type ValidRequests } from "./valid-requests";
import { listOperations, mutatedRequest, validRequest, widgetOperations, type FuzzRequest, type Operation } from "./fuzz-requests";
import { describeFailure, FUZZ_RUNS, FUZZ_SEED, judge, loadDocument, prepareFixture, send, undocumented, type Fixture } from "./fuzz-harness";

// Property-based fuzzing of every operation the Worker documents in /openapi.json: requests are
// generated from the document itself, so a new route is fuzzed the moment it is documented.
const doc = await loadDocument();
const operations = listOperations(doc);
let fx: Fixture;
let valid: ValidRequests;
/** Requests that took over a second: hostile input must not buy much server time either. */
const slow: string[] = [];

beforeAll(async () => {
  fx = await prepareFixture(doc);
  valid = await validRequests(doc, fx);
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
    // A fixed number of runs, whatever the machine's load: no time budget that quietly runs fewer.
    // Shrinking is bounded by count, not time, for the same reason.
    { numRuns: runs, seed: FUZZ_SEED, maxSkipsPerRun: 0, endOnFailure: true },
  );
}

describe("the OpenAPI document", () => {
  it("documents the public and private operations it serves", () => {
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(operations.some((op) => op.door === "public")).toBe(true);
  });
});

/**
 * Requests built to be valid (valid-requests.ts: the objects they name exist, the stay is one the
 * business sells), each run a new one: every one must succeed, with a 2xx of its documented shape.
 */
/** Each run may make its own objects first (a booking, a webhook): the time allowed grows with the runs. */
const BUILT_TIMEOUT = 30_000 + FUZZ_RUNS * 2_000;

async function succeeds(op: Operation, door: Door, runs: number) {
  await valid.makeRoom();
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(fc.constant(null), async () => {
      const req = door === "widget" ? await valid.widgetRequest(op) : await valid.ownerRequestFor(op, door);
      const answer = await send(op, req, fx);
      sent++;
      const problems = judge(doc, op, answer);
      if (answer.status < 200 || answer.status >= 300) problems.push(`answered ${answer.status} to a request built to be valid`);
      if (problems.length) throw new Error(describeFailure(op, req, answer, problems));
    }),
    { numRuns: runs, seed: FUZZ_SEED, endOnFailure: true },
  );
  expect(sent).toBe(runs);
}

describe.each(operations.map((op) => [op.id, op] as const))("fuzz %s", (_id, op) => {
  it("answers requests built to be valid with a 2xx of the documented shape", async () => {
    await succeeds(op, "keyed", FUZZ_RUNS);
  }, BUILT_TIMEOUT);
  // Valid by the schema alone, the business may still refuse them (a date it does not sell, an id
  // it never had): a documented answer, never a 5xx.
  it("answers schema-valid requests without a 5xx, with documented shapes", async () => {
    await property(op, validRequest(doc, op, fx.hints), FUZZ_RUNS);
  });
  it("answers hostile requests with a problem+json 4xx, never a 5xx", async () => {
    await property(op, mutatedRequest(doc, op, fx.hints), FUZZ_RUNS * 2);
  });
});

// The same handlers through the widget's door (origin allowed, no key), and its own two reads.
describe.each(widgetOperations(operations, widgetRoutes().routes).map((op) => [op.id, op] as const))("fuzz widget %s", (_id, op) => {
  it("answers requests built to be valid with a 2xx", async () => {
    await succeeds(op, "widget", Math.max(1, Math.ceil(FUZZ_RUNS / 2)));
  }, BUILT_TIMEOUT);
  it("answers schema-valid and hostile requests without a 5xx, errors as problem+json", async () => {
    await property(op, validRequest(doc, op, fx.hints), Math.max(1, Math.ceil(FUZZ_RUNS / 2)));
    await property(op, mutatedRequest(doc, op, fx.hints), FUZZ_RUNS);
  });
});
