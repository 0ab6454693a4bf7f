import { z } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";

/** The answers every private route can give before its handler runs (the private door). */
export const authResponses = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key is not a private key."),
  429: problemResponse("Rate limit exceeded."),
};

/** The answers of a route with a JSON body, besides validation. */
export const bodyResponses = {
  413: problemResponse("The body is too large."),
  415: problemResponse("The body is not application/json."),
};

/** A 2xx JSON response entry. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

/** A UUID path parameter (its format is checked by the handler: a malformed one is a 400). */
export const uuidPath = (name: string) => z.string().openapi({ param: { name, in: "path" }, format: "uuid" });
