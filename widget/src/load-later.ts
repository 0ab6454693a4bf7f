/**
 * The guest's path after the calendar (later.ts: its steps and the cart actions) is one chunk,
 * fetched once per page: right after the first screen is shown, or at once when a stored cart
 * is to be resumed.
 */
export type Later = typeof import("./later");

let loaded: Later | undefined;
let loading: Promise<Later> | undefined;

/** The chunk when it has arrived, else undefined. */
export const laterLoaded = (): Later | undefined => loaded;

export function loadLater(): Promise<Later> {
  return (loading ??= import("./later").then(
    (m) => (loaded = m),
    (err: unknown) => {
      loading = undefined; // the next attempt fetches again
      throw err;
    },
  ));
}
