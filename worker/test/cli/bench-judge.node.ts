/**
 * The bench's verdicts: a catalog read is met at half the baseline or more, judged on the ratio
 * itself, and the table never shows a miss as the target.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { judge, markdown, type Row } from "../../../e2e/bench/run";

const result = (rps: number) => ({ rps, requests: rps * 5, p50: 20, p99: 60, max: 80, errors: 0, non2xx: 0, statuses: { "200": rps * 5 }, steps: {} });
const row = (rps: number): Row => ({ id: "all", title: "every product", kind: "catalog", connections: 10, result: result(rps) });
const machine = { nproc: 2, model: "test", node: "v20" };

describe("bench verdicts", () => {
  it("0.497 of the baseline is not 0.5: not met, and shown as 0.49", () => {
    const miss = row(349);
    judge(miss, 702);
    assert.equal(miss.met, false);
    const hit = row(351);
    judge(hit, 702);
    assert.equal(hit.met, true);
    const md = markdown({ date: "2026-11-22", machine, seconds: 5, rows: [miss, hit], scaling: [] });
    const lines = md.split("\n").filter((l) => l.startsWith("| every product"));
    assert.match(lines[0], /\| 349 \| 0\.49 \|.*❌ not met/);
    assert.match(lines[1], /\| 351 \| 0\.5 \|.*✅ met/);
  });

  it("a read with any error is not met, whatever its speed", () => {
    const r = row(600);
    r.result!.non2xx = 1;
    judge(r, 700);
    assert.equal(r.met, false);
  });

  it("reads during a sale: an error of the buyers running alongside fails the row too, and the table says what ran", () => {
    const r: Row = { id: "sale", title: "calendars during a sale", kind: "read", connections: 10, result: result(150) };
    r.alongside = { label: "buyers", connections: 5, result: { ...result(60), non2xx: 2, steps: { add: { count: 150, p50: 60, p99: 165, max: 170 } } } };
    judge(r, 650);
    assert.equal(r.met, false);
    const line = markdown({ date: "2026-11-23", machine, seconds: 5, rows: [r], scaling: [] }).split("\n").find((l) => l.startsWith("| calendars"))!;
    assert.match(line, /meanwhile 5 buyers: 60 req\/s, add p99 165, 2 errors/);
    r.alongside.result!.non2xx = 0;
    judge(r, 650);
    assert.equal(r.met, true);
  });

  it("the flow's add p99 is judged against 100 ms, and a row measured longer than the run's seconds says how long", () => {
    const flow: Row = { id: "cart-flow", title: "the flow", kind: "flow", connections: 20, seconds: 15, result: { ...result(500), steps: { add: { count: 7000, p50: 28, p99: 99.9, max: 130 } } } };
    judge(flow, 1300);
    assert.equal(flow.met, true);
    flow.result!.steps.add.p99 = 100;
    judge(flow, 1300);
    assert.equal(flow.met, false);
    const line = markdown({ date: "2026-11-23", machine, seconds: 5, rows: [flow], scaling: [] }).split("\n").find((l) => l.startsWith("| the flow"))!;
    assert.match(line, /^\| the flow \(15 s\) — add p50 28 \/ p99 100 \| 20 \|/);
  });

  it("a flow's row says how many of its e-mails went out while it ran (the rest are not in its numbers)", () => {
    const flow: Row = { id: "cart-flow", title: "the flow", kind: "flow", connections: 20, seconds: 15, result: { ...result(500), steps: { add: { count: 7000, p50: 28, p99: 90, max: 130 } } } };
    flow.emails = { written: 5200, sent: 640 };
    judge(flow, 1300);
    const line = markdown({ date: "2026-11-27", machine, seconds: 5, rows: [flow], scaling: [] }).split("\n").find((l) => l.startsWith("| the flow"))!;
    assert.match(line, /— add p50 28 \/ p99 90; e-mails: 5200 written, 640 sent meanwhile \(with the warm-up; the rest after\) \| 20 \|/);
  });
});
