/** What the administration's routes share: the answers every change can give. */
import { problemResponse } from "../../../contract/problem";
import { authResponses, bodyResponses } from "../openapi-parts";
export { keyActor } from "../actor";

/** The answers of a change besides its success. */
export const changeResponses = {
  ...bodyResponses,
  400: problemResponse("Malformed JSON, or a malformed id in the path."),
  ...authResponses,
  409: problemResponse("In use (archiving what live products use), a capacity that would fall below what is held or booked (code capacity_below_used, each date in `errors`), or the catalog kept changing meanwhile."),
  422: problemResponse("Invalid body: every bad field is named in `errors`, references included; nothing was changed."),
};
export const readResponses = { 400: problemResponse("A malformed id in the path."), ...authResponses, 422: problemResponse("Invalid query.") };
