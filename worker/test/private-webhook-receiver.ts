/**
 * A real HTTP receiver for webhook tests, on loopback (ports 8820-8829), started once per vitest
 * run in Node (globalSetup). The Worker's delivery fetch()es it over real HTTP from workerd.
 * Tests steer it per hook name and read back what arrived:
 *   POST /hooks/{name}      records the request; answers 503 while `fail` > 0, 410 when `gone`
 *   POST /control/{name}    {fail?: number, gone?: boolean, delayMs?: number} (delayMs: answer that much later)
 *   GET  /received/{name}   every request that arrived: {status, headers, body}
 *   GET  /stats/{name}      {maxInFlight}: the most requests of that name waiting for an answer at once
 */
import { createServer, type Server } from "node:http";
import type { TestProject } from "vitest/node";

interface Hook {
  fail: number;
  gone: boolean;
  delayMs: number;
  inFlight: number;
  maxInFlight: number;
  received: { status: number; headers: Record<string, string>; body: string }[];
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiverPort: number;
  }
}

let server: Server | undefined;

export default async function setup(project: TestProject) {
  const hooks = new Map<string, Hook>();
  const hook = (name: string) => {
    let h = hooks.get(name);
    if (!h) hooks.set(name, (h = { fail: 0, gone: false, delayMs: 0, inFlight: 0, maxInFlight: 0, received: [] }));
    return h;
  };
  const handler = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const [, kind, name = ""] = (req.url ?? "").split("/");
      const send = (status: number, json: unknown = {}) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (kind === "hooks" && req.method === "POST") {
        const h = hook(name);
        const status = h.gone ? 410 : h.fail > 0 ? 503 : 200;
        if (h.fail > 0) h.fail -= 1;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(",") : String(v);
        h.received.push({ status, headers, body });
        if (!h.delayMs) return send(status);
        h.inFlight += 1;
        h.maxInFlight = Math.max(h.maxInFlight, h.inFlight);
        return void setTimeout(() => {
          h.inFlight -= 1;
          send(status);
        }, h.delayMs);
      }
      if (kind === "control" && req.method === "POST") {
        const h = hook(name);
        const cmd = JSON.parse(body || "{}");
        if (typeof cmd.fail === "number") h.fail = cmd.fail;
        if (typeof cmd.gone === "boolean") h.gone = cmd.gone;
        if (typeof cmd.delayMs === "number") h.delayMs = cmd.delayMs;
        return send(200, { fail: h.fail, gone: h.gone });
      }
      if (kind === "received" && req.method === "GET") return send(200, hook(name).received);
      if (kind === "stats" && req.method === "GET") return send(200, { maxInFlight: hook(name).maxInFlight });
      send(404);
    });
  });
  for (let port = 8820; port <= 8829; port++) {
    const ok = await new Promise<boolean>((resolve) => {
      handler.once("error", () => resolve(false));
      handler.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (ok) {
      server = handler;
      project.provide("webhookReceiverPort", port);
      break;
    }
  }
  if (!server) project.provide("webhookReceiverPort", 0);
  return async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };
}
