import type { Context } from "hono";
import type { AppEnv } from "../../db/request-env";
import { checkRefs as checkRefsIn, type Ref } from "../../manage/input";

// The checks live with the changes in manage/ (the back office makes the same ones).
export { isGuardFailure, isGuestPersonTaken, personInput } from "../../manage/input";

/** 422 when a referenced diet, level or location is not the business's. */
export async function checkRefs(c: Context<AppEnv>, refs: Ref[]): Promise<void> {
  await checkRefsIn(c.env.DB, c.get("tenant").businessId, refs);
}
