import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { publicOrigin } from "./origin";

describe("the origin links are made on", () => {
  it("is the configured one, whatever Host the request named", () => {
    expect(publicOrigin("https://book.example.com", "https://evil.example/admin/demo/forgot")).toBe("https://book.example.com");
    expect(publicOrigin(" https://book.example.com/some/path ", "http://127.0.0.1:8787/x")).toBe("https://book.example.com");
  });

  it("without one, is the request's own only on a loopback host, and otherwise no link is made", () => {
    expect(publicOrigin("", "http://127.0.0.1:8931/admin/demo/staff")).toBe("http://127.0.0.1:8931");
    expect(publicOrigin(undefined, "http://localhost:8787/x")).toBe("http://localhost:8787");
    expect(() => publicOrigin("", "https://evil.example/admin/demo/forgot")).toThrow(ApiError);
    expect(() => publicOrigin(undefined, "https://bookings.example.com/admin/demo/forgot")).toThrow(/PUBLIC_ORIGIN/);
  });
});
