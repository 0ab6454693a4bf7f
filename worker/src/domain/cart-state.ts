/**
 * The cart's state machine, as the spec's state table has it: open -> checked_out | abandoned,
 * nothing else. Pure: callers pass the stored row and the request's clock.
 *
 * A cart whose expiry has passed is abandoned at once for everyone, whether or not the alarm has
 * swept it yet (expired holds never count, so its units are already free).
 */
export type CartStatus = "open" | "checked_out" | "abandoned";
export type AbandonReason = "expired" | "deleted";
/** What can happen to a cart: the triggers of the spec's table. */
export type CartAction = "add" | "extend" | "checkout" | "abandon" | "expire";

export interface CartStateRow {
  status: CartStatus;
  /** ISO 8601 UTC as stored (`Date.toISOString()`); compared as text with the same format. */
  expires_at: string;
  abandon_reason: AbandonReason | null;
}

export interface CartState {
  status: CartStatus;
  abandon_reason: AbandonReason | null;
}

/** Has the cart's expiry passed at `nowIso`? Same rule as the database: live while expires_at > now. */
export function isExpired(row: Pick<CartStateRow, "expires_at">, nowIso: string): boolean {
  return row.expires_at <= nowIso;
}

/** The state a client sees at `nowIso`: an open cart past its expiry is abandoned (expired). */
export function effectiveState(row: CartStateRow, nowIso: string): CartState {
  if (row.status === "open" && isExpired(row, nowIso)) return { status: "abandoned", abandon_reason: "expired" };
  return { status: row.status, abandon_reason: row.status === "abandoned" ? (row.abandon_reason ?? "deleted") : null };
}

export interface Refusal {
  status: 409 | 410;
  code: "cart_not_open" | "cart_expired";
  detail: string;
}

/** The next state after `action`, or why the cart refuses it. */
export type Transition = { ok: true; next: CartState } | { ok: false; refusal: Refusal };

/**
 * Applies `action` to the cart at `nowIso`.
 * - open: add and extend keep it open, checkout checks it out, abandon and expire abandon it.
 * - expired (open past its expiry, or abandoned by expiry): 410 cart_expired. Abandoning it again
 *   is allowed (it is already abandoned: DELETE stays idempotent).
 * - abandoned by the buyer: 409 cart_not_open; abandoning again is allowed.
 * - checked out: 409 cart_not_open for everything.
 */
export function transition(row: CartStateRow, action: CartAction, nowIso: string): Transition {
  const state = effectiveState(row, nowIso);
  if (state.status === "open") {
    switch (action) {
      case "add":
      case "extend":
        return { ok: true, next: state };
      case "checkout":
        return { ok: true, next: { status: "checked_out", abandon_reason: null } };
      case "abandon":
        return { ok: true, next: { status: "abandoned", abandon_reason: "deleted" } };
      case "expire":
        // The alarm may run a little early (clock skew): an open cart not yet expired stays open.
        return { ok: false, refusal: { status: 409, code: "cart_not_open", detail: "The cart has not expired yet." } };
    }
  }
  if (state.status === "abandoned") {
    if (action === "abandon" || action === "expire") return { ok: true, next: state };
    if (state.abandon_reason === "expired") {
      return { ok: false, refusal: { status: 410, code: "cart_expired", detail: "The cart has expired and its items were released. Start a new cart." } };
    }
    return { ok: false, refusal: { status: 409, code: "cart_not_open", detail: "The cart was abandoned and its items were released. Start a new cart." } };
  }
  return { ok: false, refusal: { status: 409, code: "cart_not_open", detail: "The cart has already been checked out." } };
}
