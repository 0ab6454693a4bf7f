/**
 * What the cart endpoints do: view, add, extend, delete (checkout is checkout.ts). Every write is
 * one D1 batch; capacity, cart state and limits are checked inside that batch (trigger and
 * guards), never between a read and a write. How an operation reads, sends and runs again when
 * the cart changed under it is run.ts's; the cart's answer shape is view.ts's.
 */
import type { AddToCartBody, Cart } from "../contract/cart";
import type { BusinessConfig } from "../contract/config";
import { idempotencyResourceStatement } from "../db/idempotency";
import { holdStatements, releaseCartHoldsStatement, extendCartHoldsStatement, findShortages, stamp, type Hold, type Shortage } from "../db/allocations";
import {
  abandonCartStatement,
  cartGuard,
  extendCartStatement,
  insertCartGuestsStatements,
  insertCartLinesStatements,
  insertCartStatement,
  itemsGuard,
  cartFrom,
  cartStatement,
  openCartsGuard,
  visitorGuestsGuard,
  touchCartStatement,
  type CartContents,
  type CartGuestData,
} from "../db/carts";
import { effectiveState, transition, type CartAction, type CartStateRow } from "../domain/cart-state";
import { guestErrors, normEmail } from "../domain/cart-people";
import { fieldsFor, keptAnswers } from "../domain/custom-fields";
import { quotePackages, type QuoteLine } from "../domain/package-quote";
import { ApiError, type FieldError } from "../lib/errors";
import { dateIn, isoDateTime } from "../lib/time";
import { newId } from "../lib/ids";
import { batchAbortReason, catalogOf, refuseWhilePaying, requireCart, runGuarded, sender, type CartCall, type Outcome, isWidgetVisitor } from "./run";
import { cartView } from "./view";
import type { D1, D1Env } from "../db/d1";

const limitExceeded = (detail: string) => new ApiError(409, "limit_exceeded", detail);

const visitorGuestsExceeded = (config: BusinessConfig) =>
  limitExceeded(
    `This visitor would hold places for more than ${config.max_guests_held_per_visitor} guests at once over its open carts (max_guests_held_per_visitor): ` +
      "check out or delete a cart first. Nothing was added.",
  );

/** A widget visitor's calls (middleware/widget.ts names them "widget:<address>"), not an API key's. */

async function configOf(db: D1, call: CartCall): Promise<BusinessConfig> {
  return (await catalogOf(db, call)).business.config;
}

/** Throws the cart's refusal of `action` at `now` (409 cart_not_open, 410 cart_expired). */
function allow(row: CartStateRow, action: CartAction, now: Date): void {
  const t = transition(row, action, stamp(now));
  if (!t.ok) throw new ApiError(t.refusal.status, t.refusal.code, t.refusal.detail);
}

// --- view ----------------------------------------------------------------------------------

export async function viewCart(env: D1Env, call: CartCall): Promise<Outcome<Cart>> {
  const contents = await requireCart(env.DB, call);
  return { status: 200, body: cartView(contents, await catalogOf(env.DB, call), call.now) };
}

// --- add -----------------------------------------------------------------------------------

/**
 * Where in the request a shortage lies, for each guest that wanted it: the item sent for it (a
 * time of a boat dive, an extra's day), else the room, else the start date. The answer's
 * `errors` then name the field a guest changes (the widget shows the message there).
 */
function shortagePaths(body: AddToCartBody, guestIds: string[], lines: QuoteLine[], shortages: Shortage[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const s of shortages) {
    const at = s.slot ? `${s.date} ${s.slot}:00` : s.date;
    const message = `${s.title} on ${s.date}${s.slot ? ` at ${s.slot}` : ""}: ${s.available} left, ${s.qty} wanted`;
    const seen = new Set<number>();
    for (const line of lines) {
      const i = guestIds.indexOf(line.guest_key);
      if (line.product_id !== s.product_id || !line.dates.includes(at) || i < 0 || seen.has(i)) continue;
      seen.add(i);
      const j = body.guests[i].package.items?.findIndex((item) => item.package_item_id === line.package_item_id) ?? -1;
      const path = j >= 0 ? `guests.${i}.package.items.${j}.dates` : line.role === "accommodation" || line.role === "srs" ? `guests.${i}.package.accommodation_id` : `guests.${i}.package.start_date`;
      errors.push({ path, message });
    }
  }
  return errors;
}

/** Explains a 'sold_out' abort: which product is sold out on which date (and time), and at which field of the request. */
async function soldOut(db: D1, businessId: number, holds: Hold[], now: Date, where?: (s: Shortage[]) => FieldError[]): Promise<ApiError> {
  const shortages = await findShortages(db, businessId, holds, now);
  if (shortages.length === 0) {
    return new ApiError(409, "sold_out", "Some of the requested units were taken while this request ran; nothing was added. Try again.");
  }
  const list = shortages
    .slice(0, 10)
    .map((s) => `${s.title} on ${s.date}${s.slot ? ` at ${s.slot}` : ""} (${s.available} left, ${s.qty} wanted)`)
    .join("; ");
  const more = shortages.length > 10 ? ` and ${shortages.length - 10} more` : "";
  return new ApiError(409, "sold_out", `Sold out: ${list}${more}. Nothing was added to the cart.`, where ? { errors: where(shortages) } : {});
}

/**
 * POST /bookings/add: opens the cart (`isNew`) or adds to it. Every hold of the request (every
 * night, every item, every guest) goes in ONE batch with the cart's rows: all or nothing.
 */
export function addToCart(env: D1Env, call: CartCall, body: AddToCartBody, isNew: boolean): Promise<Outcome<Cart>> {
  return isNew ? addOnce(env, call, body, true) : runGuarded(() => addOnce(env, call, body, false));
}

async function addOnce(env: D1Env, call: CartCall, body: AddToCartBody, isNew: boolean): Promise<Outcome<Cart>> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  const snap = await catalogOf(db, call);
  const config = snap.business.config;
  let existing: CartContents | null = null;
  if (!isNew) {
    existing = await requireCart(db, call);
    allow(existing.cart, "add", now);
    refuseWhilePaying(existing.cart);
    if (body.currency.toUpperCase() !== existing.cart.currency) {
      const message = `must be ${existing.cart.currency}, the currency this cart was opened with`;
      throw new ApiError(422, "validation_failed", `currency: ${message}`, { errors: [{ path: "currency", message }] });
    }
  }

  const cartEmails = new Set(existing?.guests.map((g) => normEmail(g.data.email)).filter((e): e is string => e !== null) ?? []);
  const known = { dietIds: new Set(snap.diets.map((d: { id: number }) => d.id)), levelIds: new Set(snap.levels.map((l: { id: number }) => l.id)) };
  const errors = guestErrors(body.guests, config, dateIn(now, config.time_zone), cartEmails, known);
  if (errors.length > 0) {
    throw new ApiError(422, "validation_failed", `The guests are invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
  }

  const guestIds = body.guests.map(() => newId());
  const guestFields = fieldsFor(config.custom_fields, "guest");
  const quote = quotePackages(
    snap,
    body.currency,
    body.guests.map((g, i) => ({ key: guestIds[i], gender: g.gender, package: g.package })),
  );
  // Items of a cart are its guests (each a booking of a package with its stay, room and
  // options), not its priced lines: a party of 8 with every option is 8 items.
  const itemCount = (existing?.guests.length ?? 0) + body.guests.length;
  if (itemCount > config.max_items_per_cart) {
    throw limitExceeded(`The cart would hold ${itemCount} guests; this business allows ${config.max_items_per_cart} per cart (max_items_per_cart). Nothing was added.`);
  }

  const visitor = isWidgetVisitor(call.clientId);
  // A visitor's cart holds for at most max_hold_seconds_per_visitor from its opening, its lifetime included.
  const lifetime = Math.min(config.cart_lifetime_seconds, visitor ? config.max_hold_seconds_per_visitor : Infinity);
  const expiresAt = existing ? new Date(existing.cart.expires_at) : new Date(now.getTime() + lifetime * 1000);
  if (visitor && body.guests.length > config.max_guests_held_per_visitor) throw visitorGuestsExceeded(config);
  const statements: D1PreparedStatement[] = [];
  // What one visitor holds at once over all its carts, decided in the batch (two racing adds cannot both pass).
  if (visitor) statements.push(visitorGuestsGuard(db, businessId, call.clientId, body.guests.length, config.max_guests_held_per_visitor, now));
  if (isNew) {
    // The open-cart limit is an end client's: a widget visitor's. An API key serves an
    // integrator's whole site, all its shoppers at once, whom the service cannot tell apart.
    if (isWidgetVisitor(call.clientId)) statements.push(openCartsGuard(db, businessId, call.clientId, config.max_open_carts_per_client, now));
    statements.push(insertCartStatement(db, { id: cartId, businessId, currency: quote.currency, clientId: call.clientId, expiresAt, now }));
  } else {
    // The guests' e-mails and the item count were checked on the cart as read.
    statements.push(
      cartGuard(db, businessId, cartId, now, existing!.cart.revision),
      itemsGuard(db, businessId, cartId, body.guests.length, config.max_items_per_cart),
      touchCartStatement(db, businessId, cartId, now),
    );
  }
  statements.push(
    ...insertCartGuestsStatements(db, businessId, cartId, body.guests.map((g, i) => ({ id: guestIds[i], data: { ...g, custom_fields: keptAnswers(guestFields, g.custom_fields) } as CartGuestData })), now),
    ...insertCartLinesStatements(
      db,
      businessId,
      cartId,
      quote.lines.map((line) => ({
        cart_guest_id: line.guest_key,
        product_id: line.product_id,
        package_item_id: line.package_item_id,
        role: line.role,
        dates: line.dates,
        qty: line.qty,
        price_minor: line.price_minor,
        is_fixed: line.is_fixed,
      })),
    ),
    ...holdStatements(db, businessId, cartId, quote.holds, now, expiresAt),
  );
  if (call.idempotencyKey) statements.push(idempotencyResourceStatement(db, businessId, call.idempotencyKey, cartId));

  let written: D1Result[];
  try {
    // A new cart's write may carry the request's access check (first, so nothing is written unless it holds).
    const head = isNew ? (call.access?.statements ?? []) : [];
    written = await sender(db, call)([...head, ...statements, cartStatement(db, businessId, cartId)]);
    if (head.length) call.access!.settle(written.slice(0, head.length));
  } catch (err) {
    switch (batchAbortReason(err)) {
      case "sold_out":
        throw await soldOut(db, businessId, quote.holds, now, (s) => shortagePaths(body, guestIds, quote.lines, s));
      case "cart_not_open":
      case "cart_expired": {
        const again = await requireCart(db, call);
        allow(again.cart, "add", now);
        throw err;
      }
      case "limit_open_carts":
        throw limitExceeded(
          `This visitor already has ${config.max_open_carts_per_client} open carts (max_open_carts_per_client): check out or delete one (DELETE /carts/{cart_id}), or add to it with its cart_id.`,
        );
      case "limit_visitor_guests":
        throw visitorGuestsExceeded(config);
      case "limit_items":
        throw limitExceeded(`The cart would hold more than ${config.max_items_per_cart} guests (max_items_per_cart). Nothing was added.`);
      default:
        throw err;
    }
  }
  const contents = cartFrom(written)!;
  return { status: isNew ? 201 : 200, body: cartView(contents, snap, now), expiresAt: isNew ? expiresAt : undefined };
}

// --- extend, abandon, expire ---------------------------------------------------------------

/** Spec: an extension moves the expiry to 10 minutes after the request. */
export const EXTENSION_MS = 10 * 60 * 1000;

/** PUT /carts/{cart_id}/extend: expiry = 10 minutes after the request (never earlier than it was). */
export function extendCart(env: D1Env, call: CartCall): Promise<Outcome<{ cart_id: string; expiry_date: string }>> {
  return runGuarded(async () => {
    const db = env.DB;
    const { businessId, cartId, now } = call;
    const config = await configOf(db, call);
    const { cart } = await requireCart(db, call);
    allow(cart, "extend", now);
    refuseWhilePaying(cart);
    if (cart.extensions >= config.max_extensions_per_cart) {
      throw limitExceeded(`This cart has been extended ${cart.extensions} times, the most this business allows (max_extensions_per_cart is ${config.max_extensions_per_cart}).`);
    }
    const expiresAt = new Date(Math.max(now.getTime() + EXTENSION_MS, Date.parse(cart.expires_at)));
    // A visitor's cart holds for at most max_hold_seconds_per_visitor from its opening (the cart's
    // opening never changes, so this needs no guard of its own beyond the cart's revision).
    const holdEnd = Date.parse(cart.created_at) + config.max_hold_seconds_per_visitor * 1000;
    if (isWidgetVisitor(cart.client_id) && expiresAt.getTime() > holdEnd) {
      throw limitExceeded(
        `This cart has held its items for as long as one visitor may (max_hold_seconds_per_visitor is ${config.max_hold_seconds_per_visitor} s from its opening): ` +
          `it expires at ${isoDateTime(new Date(cart.expires_at))}. Check out before then, or start a new cart.`,
      );
    }
    try {
      await sender(db, call)([
        // The extensions were counted on the cart as read.
        cartGuard(db, businessId, cartId, now, cart.revision),
        extendCartStatement(db, businessId, cartId, expiresAt, now),
        extendCartHoldsStatement(db, businessId, cartId, expiresAt),
      ]);
    } catch (err) {
      if (batchAbortReason(err) === "cart_not_open" || batchAbortReason(err) === "cart_expired") allow((await requireCart(db, call)).cart, "extend", now);
      throw err;
    }
    return { status: 200, body: { cart_id: cartId, expiry_date: isoDateTime(expiresAt) } };
  });
}

/**
 * DELETE /carts/{cart_id}: abandons the cart and releases its holds at once. Idempotent for an
 * abandoned cart; a checked-out cart answers 409. A cart already past its expiry is recorded as
 * expired (that is what happened to it first).
 */
export function abandonCart(env: D1Env, call: CartCall): Promise<Outcome<{ success: boolean }>> {
  return runGuarded(async () => {
    const db = env.DB;
    const { businessId, cartId, now } = call;
    const { cart } = await requireCart(db, call);
    allow(cart, "abandon", now);
    refuseWhilePaying(cart);
    const reason = effectiveState(cart, stamp(now)).abandon_reason ?? "deleted";
    // Decided on the cart as read: a checkout in between makes this a 409 on the next run.
    await sender(db, call)([
      cartGuard(db, businessId, cartId, now, cart.revision, { open: false }),
      abandonCartStatement(db, businessId, cartId, reason, now),
      releaseCartHoldsStatement(db, businessId, cartId, now),
    ]);
    return { status: 200, body: { success: true } };
  });
}
