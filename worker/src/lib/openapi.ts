import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, Env, TypedResponse } from "hono";
import { ApiError } from "./errors";

/**
 * A router whose failed validations all become the same 422 problem+json, listing each invalid
 * field. Every router of the app is made here, so no route formats its own validation errors.
 */
export function routerWithProblems<E extends Env>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        // An unknown field is named by its own path (zod reports the object holding it).
        const errors = result.error.issues.flatMap((issue) =>
          issue.code === "unrecognized_keys"
            ? issue.keys.map((key) => ({ path: [...issue.path, key].map(String).join("."), message: "is not a field of this object" }))
            : [{ path: issue.path.map(String).join(".") || result.target, message: issue.message }],
        );
        const summary = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
        throw new ApiError(422, "validation_failed", `The ${result.target} is invalid: ${summary}`, { errors });
      }
    },
  });
}

/** JSON already serialized, of the type `T` it was serialized from (see `jsonText`). */
export type JsonText<T> = string & { readonly __json: T };

/** `value` serialized, remembering its type so the route's answer stays checked against its schema. */
export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

/** A 200 JSON answer from text serialized earlier, typed as `c.json(value, 200)` would be. */
export function jsonAnswer<T>(c: Context, text: JsonText<T>): TypedResponse<T, 200, "json"> {
  return c.body(text, 200, { "Content-Type": "application/json" }) as unknown as TypedResponse<T, 200, "json">;
}
