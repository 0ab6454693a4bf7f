import type { AppEnv } from "../db/request-env";
import { routerWithProblems } from "../lib/openapi";

/**
 * A router of this app: its environment (AppEnv), and failed validations as the one 422
 * problem+json (lib/openapi.ts). Every router of the app is made here.
 */
export const createRouter = () => routerWithProblems<AppEnv>();
