import { describe, expect, it } from "vitest";
import { call, callJson } from "../helpers";

describe("GET /healthz", () => {
  it("answers ok without a key", async () => {
    const res = await callJson("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("still refuses plain HTTP on a public host", async () => {
    const res = await call("http://api.example.com/healthz");
    expect(res.status).toBe(403);
  });
});

describe("GET /openapi.json", () => {
  it("describes the server it came from, bearer auth, and the health check without auth", async () => {
    const { status, body } = await callJson("/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(body.servers).toEqual([expect.objectContaining({ url: "http://127.0.0.1" })]);
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(body.security).toEqual([{ bearerAuth: [] }]);
    expect(body.paths["/healthz"].get).toMatchObject({ operationId: "getHealth", security: [] });
    expect(body.paths["/api/pub/v2/settings"].get.tags).toEqual(["Settings"]);
  });

  it("leaves the pages out of the API description", async () => {
    const { body } = await callJson("/openapi.json");
    expect(Object.keys(body.paths)).not.toContain("/docs");
  });
});

describe("GET /docs", () => {
  it("serves a page that renders /openapi.json, with a strict content security policy", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    // Its one inline script runs by this answer's nonce: no 'unsafe-inline' script.
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).toContain("/openapi.json");
    // The renderer comes from this server: no third-party asset, the page works offline.
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
    // A new nonce for every answer.
    const again = (await call("/docs")).headers.get("Content-Security-Policy");
    expect(again).not.toBe(csp);
  });
});
