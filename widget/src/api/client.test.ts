import { describe, expect, test } from "vitest";
import { classify, toJson } from "./client";

describe("error classification", () => {
  test("each problem+json maps to the kind the guest gets a message for", () => {
    expect(classify(429, { code: "rate_limited" }, "7")).toMatchObject({ kind: "rate_limited", retryAfter: 7 });
    expect(classify(409, { code: "sold_out" }, null).kind).toBe("sold_out");
    expect(classify(410, { code: "cart_expired" }, null).kind).toBe("cart_expired");
    expect(classify(409, { code: "cart_not_open" }, null).kind).toBe("cart_not_open");
    expect(classify(403, { code: "origin_not_allowed" }, null).kind).toBe("origin");
    expect(classify(422, { code: "validation_failed", errors: [{ path: "guests.0.email", message: "bad" }] }, null)).toMatchObject({ kind: "validation", fieldErrors: [{ path: "guests.0.email" }] });
    expect(classify(404, { code: "not_found" }, null).kind).toBe("not_found");
    expect(classify(500, null, null).kind).toBe("server");
  });
  test("the status decides where the body is missing or says nothing known", () => {
    expect(classify(429, null, null)).toMatchObject({ kind: "rate_limited", retryAfter: 1 });
    expect(classify(410, null, null).kind).toBe("cart_expired");
    expect(classify(400, { code: "malformed_json" }, null).kind).toBe("validation");
    expect(classify(502, { code: "bad_gateway" }, null)).toMatchObject({ kind: "server", code: "bad_gateway", message: "HTTP 502" });
  });
});

describe("request bodies", () => {
  test("a page's Array.prototype.toJSON (Prototype.js) does not turn arrays into strings", () => {
    const body = { currency: "EUR", guests: [{ first_name: "Ana", package: { items: [{ package_item_id: 1002, dates: ["2026-12-05"] }] } }] };
    const proto = Array.prototype as unknown as { toJSON?: () => string };
    // Prototype.js 1.6: arrays serialize themselves as a JSON string
    proto.toJSON = function (this: unknown[]) {
      return `[${this.map((x) => JSON.stringify(x)).join(", ")}]`;
    };
    try {
      expect(JSON.parse(JSON.stringify(body)).guests).toBeTypeOf("string");
      expect(JSON.parse(toJson(body))).toEqual(body);
    } finally {
      delete proto.toJSON;
    }
  });
  test("plain values serialize as JSON does", () => {
    expect(toJson({ a: 1, b: [true, null, "x"], c: undefined })).toBe('{"a":1,"b":[true,null,"x"]}');
  });
});
