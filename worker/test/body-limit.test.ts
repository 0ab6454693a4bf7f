import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { BASE, callJson, createKey } from "./helpers";

const MiB = 1024 * 1024;

/** A chunked request body (no Content-Length): a JSON object padded to about `bytes`. */
function chunkedJson(bytes: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunk = encoder.encode("x".repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode('{"email":"chunked@example.com","first_name":"'));
    },
    pull(controller) {
      if (sent >= bytes) {
        controller.enqueue(encoder.encode('"}'));
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

async function sendChunked(path: string, headers: Record<string, string>, bytes: number) {
  const request = new Request(new URL(path, BASE), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: chunkedJson(bytes),
    // @ts-expect-error: workerd needs a streamed body marked half-duplex, as fetch does
    duplex: "half",
  });
  expect(request.headers.get("Content-Length")).toBeNull();
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

describe("the body size limit counts the bytes read", () => {
  it("refuses an 8 MiB chunked POST /private/persons with 413 and creates nobody", async () => {
    const key = await createKey("private");
    const res = await sendChunked("/private/persons", { Authorization: `Bearer ${key}` }, 8 * MiB);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    const found = await callJson("/private/persons?email=chunked@example.com", { key });
    expect(found.status).toBe(200);
    expect(found.body.data ?? found.body).toHaveLength(0);
  });

  it("refuses a chunked widget add past the limit without parsing it whole", async () => {
    const res = await sendChunked("/widget/v1/demo/bookings/add", { Origin: "http://127.0.0.1:9999" }, 48 * MiB);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("still takes a chunked body under the limit", async () => {
    const key = await createKey("private");
    const res = await sendChunked("/private/persons", { Authorization: `Bearer ${key}` }, 0);
    expect([200, 201]).toContain(res.status);
  });
});

describe("answers are never sniffed", () => {
  it("sends X-Content-Type-Options: nosniff on JSON and problem answers alike", async () => {
    const ok = await callJson("/healthz");
    expect(ok.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const problem = await callJson("/api/pub/v2/settings");
    expect(problem.status).toBe(401);
    expect(problem.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
