import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

/**
 * A router whose failed validations all become the same 422 problem+json, listing each invalid
 * field. Every router of the app is made here, so no route formats its own validation errors.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const errors = result.error.issues.map((issue) => ({
          path: issue.path.map(String).join(".") || result.target,
          message: issue.message,
        }));
        const summary = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
        throw new ApiError(422, "validation_failed", `The ${result.target} is invalid: ${summary}`, { errors });
      }
    },
  });
}
