/** Checks every change shares, whoever asks for it (the private API, the back office). */
import { callingCode } from "../contract/calling-codes";
import { pickPersonData, withCallingCode, type PersonData } from "../domain/persons";
import { missingRefs } from "../db/persons";
import { ApiError } from "../lib/errors";
import type { D1 } from "../db/d1";

/** Person data of a body: only Person fields, calling code from phone_country_code. */
export function personInput(body: Record<string, unknown> | undefined): PersonData {
  return withCallingCode(pickPersonData(body ?? {}), callingCode);
}

export type Ref = { path: string; table: "diets" | "levels" | "locations"; id: number | null | undefined };

/** 422 when a referenced diet, level or location is not the business's. */
export async function checkRefs(db: D1, businessId: number, refs: Ref[]): Promise<void> {
  const errors = await missingRefs(db, businessId, refs);
  if (errors.length) throw new ApiError(422, "validation_failed", `The body is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
}

/** D1 aborts a batch with the trigger's message; these tell which guard or index refused it. */
export const isGuardFailure = (err: unknown) => /guard_failed/.test(String((err as Error)?.message ?? err));

/** The booking already has this Person as a guest (migration 0172's trigger aborted the write). */
export const isGuestPersonTaken = (err: unknown) => /guest_person_taken/.test(String((err as Error)?.message ?? err));
