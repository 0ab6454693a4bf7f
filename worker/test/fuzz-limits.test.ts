import { beforeAll, describe, expect, it } from "vitest";
import { widgetRoutes } from "../src/routes/widget";
import { listOperations, widgetOperations, type FuzzRequest, type Operation } from "./fuzz-requests";
import { describeFailure, judge, loadDocument, prepareFixture, send, type Fixture } from "./fuzz-harness";

// D1's own limits, met by values a client may send: a LIKE pattern of at most 50 bytes, at most
// 100 bound parameters in a statement, a shallow expression tree. Every query parameter of every
// documented read (and the widget's) gets the shapes that once answered 500: values of 49 bytes
// and longer, lists of 100 values (and one over), and 50 custom_fields keys (and one over). Each
// must be served or refused as a 4xx problem+json, never a 5xx. Deterministic, so that a 500
// cannot come back unnoticed between seeds.
const doc = await loadDocument();
const reads = [...listOperations(doc), ...widgetOperations(listOperations(doc), widgetRoutes().routes)].filter((op) => op.method === "GET" && op.params.some((p) => p.in === "query"));
let fx: Fixture;

beforeAll(async () => {
  fx = await prepareFixture(doc);
});

/** A request with the operation's path parameters and required query parameters from the hints. */
function baseRequest(op: Operation, except: string): FuzzRequest {
  const pick = (name: string) => String(fx.hints(op.path, name)?.[0] ?? "1");
  const path = Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, pick(p.name)]));
  const query = op.params.filter((p) => p.in === "query" && p.required && p.name !== except).map((p) => [p.name, pick(p.name)] as [string, string]);
  return { path, query };
}

const listOf = (value: string, n: number) => Array.from({ length: n }, () => value);
const fields = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, i % 2 ? "x" : i])));

function shapes(op: Operation, name: string): { label: string; query: [string, string][] }[] {
  const hinted = String(fx.hints(op.path, name)?.[0] ?? "1");
  const bare = name.replace(/\[\]$/, "");
  const out = [
    { label: "49-byte value", query: [[name, "x".repeat(49)]] as [string, string][] },
    { label: "98-byte value (49 two-byte characters)", query: [[name, "é".repeat(49)]] as [string, string][] },
    { label: "255-character value", query: [[name, "x".repeat(255)]] as [string, string][] },
    { label: "256-character value", query: [[name, "x".repeat(256)]] as [string, string][] },
    { label: "wildcards", query: [[name, "%_\\".repeat(30)]] as [string, string][] },
    { label: "100 values, comma-separated", query: [[name, listOf(hinted, 100).join(",")]] as [string, string][] },
    { label: "100 values, repeated name[]", query: listOf(hinted, 100).map((v) => [`${bare}[]`, v] as [string, string]) },
    { label: "101 values", query: [[name, listOf(hinted, 101).join(",")]] as [string, string][] },
  ];
  if (bare === "custom_fields") {
    out.push({ label: "50 custom_fields keys", query: [[name, fields(50)]] }, { label: "51 custom_fields keys", query: [[name, fields(51)]] });
  }
  return out;
}

describe.each(reads.map((op) => [op.id, op] as const))("D1 limits: %s", (_id, op) => {
  const names = op.params.filter((p) => p.in === "query").map((p) => p.name);
  it("serves or refuses long values, long lists and many keys in each query parameter, never a 5xx", async () => {
    for (const name of names) {
      for (const shape of shapes(op, name)) {
        const base = baseRequest(op, name);
        const req: FuzzRequest = { ...base, query: [...base.query, ...shape.query], mutation: `${shape.label} in ${name}` };
        const sent = await send(op, req, fx);
        const problems = judge(doc, op, sent);
        if (problems.length) throw new Error(describeFailure(op, req, sent, problems));
        expect(sent.status, `${op.id} ${shape.label} in ${name}`).toBeLessThan(500);
      }
    }
  });
});

describe("the shapes reach the filters that met D1's limits", () => {
  it("GET /private/persons and /private/guests are among the reads checked, with their list and text filters", () => {
    const persons = reads.find((op) => op.id === "GET /private/persons")!;
    const guests = reads.find((op) => op.id === "GET /private/guests")!;
    expect(persons.params.map((p) => p.name)).toEqual(expect.arrayContaining(["first_name", "last_name", "email", "query"]));
    expect(guests.params.map((p) => p.name)).toEqual(expect.arrayContaining(["booking_id", "diet_id", "custom_fields"]));
  });
});
