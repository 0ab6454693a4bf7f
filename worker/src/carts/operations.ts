/**
 * What the cart endpoints do. Every write is one D1 batch; capacity, cart state and limits are
 * checked inside that batch (trigger and guards), never between a read and a write. A write that
 * decided on what it read of a cart also guards on the cart's revision, and is run again on what
 * the cart became when another request changed it in between (runGuarded): two operations on one
 * cart, from two tabs say, take effect one after the other, as if run one at a time.
 */
import { referenceOf } from "../domain/reference";
import type { AddToCartBody, Cart, CartGuest, CartItem } from "../contract/cart";
import type { BusinessConfig } from "../contract/config";
import { idempotencyResourceStatement } from "../db/idempotency";
import { holdStatements, releaseCartHoldsStatement, extendCartHoldsStatement, findShortages, stamp, type Hold } from "../db/allocations";
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
  type CartLineRow,
} from "../db/carts";
import { effectiveState, transition, type CartAction, type CartStateRow } from "../domain/cart-state";
import { guestErrors, normEmail } from "../domain/cart-people";
import { minorDigits, toMajor } from "../domain/money";
import { quotePackages } from "../domain/package-quote";
import { translated } from "../domain/product";
import { ApiError, notFound } from "../lib/errors";
import { dateIn, isoDateTime } from "../lib/time";
import { snapshotAt, type FusedAccess } from "../db/tenant-read";
import { newId } from "../lib/ids";
import { type CatalogSnapshot } from "../domain/catalog";

/** Who asks, about which cart, at what time (the request's clock). */
export interface CartCall {
  businessId: number;
  clientId: string;
  cartId: string;
  now: Date;
  catalogVersion?: number;
  /** The request's Idempotency-Key: the write batch records on it what the request made. */
  idempotencyKey?: string;
  /**
   * The cart as read in the round trip that settled the request's access (the routes' cartRead:
   * the statements of the operation's first read, cartStatement's last). The operation's first
   * read takes it; a retry reads again.
   */
  read?: D1Result[];
  /** How the operation sends its batches (the routes pass the request's sender), else db.batch. */
  send?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>;
  /** The request's access check, to make inside a new cart's write (db/tenant-read.ts fuseAccess). */
  access?: FusedAccess;
  /** Work to finish after the answer (the request's waitUntil); without it, the work is awaited. */
  after?: (work: Promise<unknown>) => void;
}

/** The operation's way of sending a batch (CartCall.send, else db.batch). */
export function sender(db: D1Database, call: CartCall): (statements: D1PreparedStatement[]) => Promise<D1Result[]> {
  return call.send ?? ((statements) => db.batch(statements));
}

/** The request's first read of the cart, once (takeRead), else null: the caller reads itself. */
export function takeRead(call: CartCall): D1Result[] | null {
  const read = call.read ?? null;
  call.read = undefined;
  return read;
}

/** An operation's answer; a new cart's expiry, for its business's timer (durable/cart-timer.ts). */
export interface Outcome<T> {
  status: number;
  body: T;
  expiresAt?: Date;
}

/** Why a batch was aborted: the trigger's or a guard's message, if it is one of ours. */
export function batchAbortReason(err: unknown): string | null {
  const m = /\b(sold_out|cart_not_open|cart_expired|hold_expired|limit_open_carts|limit_items|limit_visitor_guests|cart_changed|access_refused|guard_failed)\b/.exec(String((err as Error)?.message ?? err));
  return m ? m[1] : null;
}

/** How many times an operation is run when the cart keeps changing under it. */
const CHANGE_ATTEMPTS = 5;

/**
 * Runs a cart operation, and runs it again (reading the cart again) when its batch found the cart
 * changed since it was read ('cart_changed': another request on the same cart wrote in between).
 * Each run decides afresh on what it reads, so the answer is what running it after the other
 * request gives: a checkout after an add books the added guest too; an add after a checkout is
 * refused (cart_not_open).
 */
export async function runGuarded<T>(op: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (batchAbortReason(err) !== "cart_changed") throw err;
      if (attempt >= CHANGE_ATTEMPTS) {
        throw new ApiError(409, "conflict", "The cart kept changing while this request ran (other requests on the same cart): nothing was done. Try again.");
      }
    }
  }
}

const limitExceeded = (detail: string) => new ApiError(409, "limit_exceeded", detail);

const visitorGuestsExceeded = (config: BusinessConfig) =>
  limitExceeded(
    `This visitor would hold places for more than ${config.max_guests_held_per_visitor} guests at once over its open carts (max_guests_held_per_visitor): ` +
      "check out or delete a cart first. Nothing was added.",
  );

/** A widget visitor's calls (middleware/widget.ts names them "widget:<address>"), not an API key's. */
export const isWidgetVisitor = (clientId: string) => clientId.startsWith("widget:");

/** The business's catalog as of the request (its config, diets, levels, products and rates). */
export async function catalogOf(db: D1Database, call: CartCall): Promise<CatalogSnapshot> {
  try {
    return await snapshotAt(db, call.businessId, call.catalogVersion);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound("The business");
    throw err;
  }
}

async function configOf(db: D1Database, call: CartCall): Promise<BusinessConfig> {
  return (await catalogOf(db, call)).business.config;
}

/** The cart, or 404 exactly like a cart of another business. */
async function requireCart(db: D1Database, call: CartCall): Promise<CartContents> {
  const read = takeRead(call);
  const contents = cartFrom(read ?? (await sender(db, call)([cartStatement(db, call.businessId, call.cartId)])));
  if (!contents) throw notFound(`Cart ${call.cartId}`);
  return contents;
}

/** Throws the cart's refusal of `action` at `now` (409 cart_not_open, 410 cart_expired). */
function allow(row: CartStateRow, action: CartAction, now: Date): void {
  const t = transition(row, action, stamp(now));
  if (!t.ok) throw new ApiError(t.refusal.status, t.refusal.code, t.refusal.detail);
}

// --- views ---------------------------------------------------------------------------------

function itemView(l: CartLineRow, major: (minor: number) => number, title: string): CartItem {
  return {
    id: l.id,
    package_item_id: l.package_item_id,
    product_id: l.product_id,
    product_type: l.product_type,
    title,
    role: l.role as CartItem["role"],
    dates: l.dates,
    qty: l.qty,
    price: major(l.price_minor),
    is_fixed: l.is_fixed,
  };
}

/**
 * The guests of a cart with their items and totals, in major units of `currency`. Titles are in
 * the guest's language_code where the catalog has a translation (the widget sends its own
 * language there), else in the business's default language.
 */
export function guestViews(contents: CartContents, currency: string, snap: CatalogSnapshot): CartGuest[] {
  const digits = minorDigits(currency);
  const major = (minor: number) => toMajor(minor, digits);
  return contents.guests.map((g) => {
    const lines = contents.lines.filter((l) => l.cart_guest_id === g.id);
    const d = g.data;
    const language = d.language_code ?? undefined;
    const titleOf = (productId: number, stored: string) => {
      const p = snap.products.get(productId);
      return p ? translated(p, "title", language) : stored;
    };
    return {
      id: g.id,
      first_name: d.first_name,
      last_name: d.last_name,
      email: d.email ?? null,
      gender: d.gender,
      language_code: d.language_code ?? null,
      birth_date: d.birth_date ?? null,
      package: {
        id: g.package_id,
        title: titleOf(g.package_id, g.package_title),
        start_date: g.start_date,
        end_date: g.end_date,
        accommodation_id: d.package.accommodation_id ?? null,
        srs: d.package.srs === true,
      },
      items: lines.map((l) => itemView(l, major, titleOf(l.product_id, l.title))),
      total: major(lines.reduce((s, l) => s + l.price_minor, 0)),
    };
  });
}

export { referenceOf };

/** GET /carts/{cart_id}'s answer. */
export function cartView(contents: CartContents, snap: CatalogSnapshot, now: Date): Cart {
  const { cart, booking } = contents;
  const config = snap.business.config;
  const state = effectiveState(cart, stamp(now));
  const open = state.status === "open";
  const digits = minorDigits(cart.currency);
  return {
    cart_id: cart.id,
    status: state.status,
    abandon_reason: state.abandon_reason,
    currency: cart.currency,
    created_at: cart.created_at,
    expiry_date: isoDateTime(new Date(cart.expires_at)),
    seconds_left: open ? Math.max(0, Math.floor((Date.parse(cart.expires_at) - now.getTime()) / 1000)) : 0,
    extensions_left: open ? Math.max(0, config.max_extensions_per_cart - cart.extensions) : 0,
    item_count: contents.lines.length,
    guests: guestViews(contents, cart.currency, snap),
    total: toMajor(contents.lines.reduce((s, l) => s + l.price_minor, 0), digits),
    booking: booking
      ? { id: booking.id, reference: referenceOf(booking.reference_year, booking.reference_number), reference_number: booking.reference_number, reference_year: booking.reference_year }
      : null,
  };
}

export async function viewCart(env: Env, call: CartCall): Promise<Outcome<Cart>> {
  const contents = await requireCart(env.DB, call);
  return { status: 200, body: cartView(contents, await catalogOf(env.DB, call), call.now) };
}

// --- add -----------------------------------------------------------------------------------

/** Explains a 'sold_out' abort: which product is sold out on which date. */
async function soldOut(db: D1Database, businessId: number, holds: Hold[], now: Date): Promise<ApiError> {
  const shortages = await findShortages(db, businessId, holds, now);
  if (shortages.length === 0) {
    return new ApiError(409, "sold_out", "Some of the requested units were taken while this request ran; nothing was added. Try again.");
  }
  const list = shortages
    .slice(0, 10)
    .map((s) => `${s.title} on ${s.date}${s.slot ? ` at ${s.slot}` : ""} (${s.available} left, ${s.qty} wanted)`)
    .join("; ");
  const more = shortages.length > 10 ? ` and ${shortages.length - 10} more` : "";
  return new ApiError(409, "sold_out", `Sold out: ${list}${more}. Nothing was added to the cart.`);
}

/**
 * POST /bookings/add: opens the cart (`isNew`) or adds to it. Every hold of the request (every
 * night, every item, every guest) goes in ONE batch with the cart's rows: all or nothing.
 */
export function addToCart(env: Env, call: CartCall, body: AddToCartBody, isNew: boolean): Promise<Outcome<Cart>> {
  return isNew ? addOnce(env, call, body, true) : runGuarded(() => addOnce(env, call, body, false));
}

async function addOnce(env: Env, call: CartCall, body: AddToCartBody, isNew: boolean): Promise<Outcome<Cart>> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  const snap = await catalogOf(db, call);
  const config = snap.business.config;
  let existing: CartContents | null = null;
  if (!isNew) {
    existing = await requireCart(db, call);
    allow(existing.cart, "add", now);
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
    ...insertCartGuestsStatements(db, businessId, cartId, body.guests.map((g, i) => ({ id: guestIds[i], data: g as CartGuestData })), now),
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
        throw await soldOut(db, businessId, quote.holds, now);
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
export function extendCart(env: Env, call: CartCall): Promise<Outcome<{ cart_id: string; expiry_date: string }>> {
  return runGuarded(async () => {
    const db = env.DB;
    const { businessId, cartId, now } = call;
    const config = await configOf(db, call);
    const { cart } = await requireCart(db, call);
    allow(cart, "extend", now);
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
export function abandonCart(env: Env, call: CartCall): Promise<Outcome<{ success: boolean }>> {
  return runGuarded(async () => {
    const db = env.DB;
    const { businessId, cartId, now } = call;
    const { cart } = await requireCart(db, call);
    allow(cart, "abandon", now);
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
