/**
 * The checkout steps (checkout-steps.ts) are one chunk, fetched once per page: right after the
 * first screen is shown, or at once when a stored cart is to be resumed.
 */
export type CheckoutSteps = typeof import("./checkout-steps");

let loading: Promise<CheckoutSteps> | undefined;

export function loadCheckoutSteps(): Promise<CheckoutSteps> {
  return (loading ??= import("./checkout-steps").catch((err: unknown) => {
    loading = undefined; // the next attempt fetches again
    throw err;
  }));
}
