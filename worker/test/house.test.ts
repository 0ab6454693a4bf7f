/// <reference types="vite/client" />
import { DurableObject } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// worker/src/durable/ holds Durable Object classes and nothing else (the layer rules of
// worker/layers.cjs keep the imports in order; this keeps the room's contents).
const modules = import.meta.glob<Record<string, unknown>>("../src/durable/*.ts", { eager: true });

describe("the house", () => {
  it("durable/ holds only Durable Object classes", () => {
    const files = Object.keys(modules);
    expect(files.length).toBeGreaterThanOrEqual(3);
    const strays = files.flatMap((file) =>
      Object.entries(modules[file])
        .filter(([, value]) => !(typeof value === "function" && value.prototype instanceof DurableObject))
        .map(([name]) => `${file}: ${name}`),
    );
    expect(strays).toEqual([]);
  });
});
