import { Hono } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../db/request-env";

/**
 * JSON Schemas of the files the service reads, generated from the same zod shapes that check
 * them, so an editor can complete and check a catalog file (`"$schema": "<host>/schemas/catalog.json"`).
 * Open to everyone, like /openapi.json.
 */
let catalogSchema: string | undefined;

export function schemaRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get("/schemas/catalog.json", async (c) => {
    // The catalog file's shapes are built on the first request that needs them, not at startup.
    const { CatalogFile } = await import("../contract/catalog-file");
    catalogSchema ??= JSON.stringify({
      ...z.toJSONSchema(CatalogFile, { io: "input", unrepresentable: "any" }),
      $id: "https://booking-platform.dev/schemas/catalog.json",
      title: "Catalog file",
      description: "A business's settings and whole catalog: `npm run catalog -- export|apply` (docs/administration.md).",
    });
    return c.body(catalogSchema, 200, { "Content-Type": "application/schema+json", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" });
  });
  return routes;
}
