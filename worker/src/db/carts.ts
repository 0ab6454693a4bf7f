/** SQL of carts, their guests and lines, and the bookings checkout creates from them. */
import { insertRowsStatements } from "./insert-rows";
import type { AbandonReason, CartStatus } from "../domain/cart-state";
import { isoDateTime } from "../lib/time";
import { releaseCartHoldsStatement, stamp } from "./allocations";
import type { D1 } from "./d1";
import { lastIdSql } from "./id-range";

export interface CartRow {
  id: string;
  business_id: number;
  status: CartStatus;
  currency: string;
  client_id: string;
  expires_at: string;
  extensions: number;
  booking_id: string | null;
  abandon_reason: AbandonReason | null;
  /** Counts the cart's writes: a write guards on the revision it read (cartGuard). */
  revision: number;
  created_at: string;
  updated_at: string;
  /** Paying online at checkout (migration 0520): null, or where the cart's payment stands. */
  payment_state: CartPaymentState | null;
  payment_session: string | null;
  payment_url: string | null;
  payment_amount_minor: number | null;
  payment_expires_at: string | null;
}

/** Where a cart's online payment at checkout stands (migration 0520). */
export type CartPaymentState = "awaiting" | "paid" | "expired" | "canceled" | "refunded";

/** A cart guest's data as sent (names, e-mail, gender, ...) and the package chosen. */
export interface CartGuestData {
  first_name: string;
  last_name: string;
  email?: string;
  gender?: "m" | "f";
  language_code?: string;
  birth_date?: string;
  diet_id?: number;
  level_id?: number;
  /** The answers kept (domain/custom-fields.ts keptAnswers). */
  custom_fields?: Record<string, string | number | boolean>;
  package: { id: number; start_date: string; end_date: string; accommodation_id?: number; srs?: boolean; items?: { package_item_id: number; dates: string[] }[] };
}

export interface CartGuestRow {
  id: string;
  data: CartGuestData;
  package_id: number;
  package_title: string;
  start_date: string;
  end_date: string;
}

/** A stored cart line: what was inserted, with its id and its product's type and title. */
export interface CartLineRow extends NewCartLine {
  id: number;
  product_type: string;
  title: string;
}

export interface BookingRefRow {
  id: string;
  reference_number: number;
  reference_year: string;
  status: "confirmed" | "cancelled";
  total_minor: number;
  start_date: string;
  end_date: string;
  newsletter_opt_in: number;
  created_at: string;
}

export interface CartContents {
  cart: CartRow;
  guests: CartGuestRow[];
  lines: CartLineRow[];
  booking: BookingRefRow | null;
}

/** The cart of this business with its guests, lines and booking, in one round trip; null when unknown. */
export async function loadCart(db: D1, businessId: number, cartId: string): Promise<CartContents | null> {
  return cartFrom(await db.batch([cartStatement(db, businessId, cartId)]));
}

/**
 * The read of loadCart() as one statement (the cart's row, its guests and lines in order, its
 * booking, each as JSON), to append to a write batch: the batch then answers the cart as it wrote
 * it, in the same round trip. cartFrom() reads the batch's last result.
 */
export function cartStatement(db: D1, businessId: number, cartId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT
         (SELECT json_object('id', id, 'business_id', business_id, 'status', status, 'currency', currency, 'client_id', client_id,
                 'expires_at', expires_at, 'extensions', extensions, 'booking_id', booking_id, 'abandon_reason', abandon_reason,
                 'revision', revision, 'created_at', created_at, 'updated_at', updated_at,
                 'payment_state', payment_state, 'payment_session', payment_session, 'payment_url', payment_url,
                 'payment_amount_minor', payment_amount_minor, 'payment_expires_at', payment_expires_at)
            FROM carts WHERE id = ?1 AND business_id = ?2) AS cart,
         (SELECT json_group_array(json_object('id', g.id, 'data', g.data, 'package_id', g.package_id, 'start_date', g.start_date,
                 'end_date', g.end_date, 'package_title', COALESCE(p.title, '')) ORDER BY g.created_at, g.rowid)
            FROM cart_guests g LEFT JOIN products p ON p.id = g.package_id WHERE g.cart_id = ?1 AND g.business_id = ?2) AS guests,
         (SELECT json_group_array(json_object('id', l.id, 'cart_guest_id', l.cart_guest_id, 'product_id', l.product_id,
                 'product_type', COALESCE(p.type, ''), 'title', COALESCE(p.title, ''), 'package_item_id', l.package_item_id, 'role', l.role,
                 'dates', l.dates, 'qty', l.qty, 'price_minor', l.price_minor, 'is_fixed', l.is_fixed) ORDER BY l.id)
            FROM cart_lines l LEFT JOIN products p ON p.id = l.product_id WHERE l.cart_id = ?1 AND l.business_id = ?2) AS lines,
         (SELECT json_object('id', id, 'reference_number', reference_number, 'reference_year', reference_year, 'status', status,
                 'total_minor', total_minor, 'start_date', start_date, 'end_date', end_date, 'newsletter_opt_in', newsletter_opt_in,
                 'created_at', created_at)
            FROM bookings WHERE cart_id = ?1 AND business_id = ?2) AS booking`,
    )
    .bind(cartId, businessId);
}

export function cartFrom(results: D1Result[]): CartContents | null {
  const row = results[results.length - 1].results[0] as { cart: string | null; guests: string; lines: string; booking: string | null } | undefined;
  if (!row?.cart) return null;
  return {
    cart: JSON.parse(row.cart) as CartRow,
    guests: (JSON.parse(row.guests) as (Omit<CartGuestRow, "data"> & { data: string })[]).map((g) => ({ ...g, data: JSON.parse(g.data) as CartGuestData })),
    lines: (JSON.parse(row.lines) as (Omit<CartLineRow, "dates" | "is_fixed"> & { dates: string; is_fixed: number })[]).map((l) => ({
      ...l,
      dates: JSON.parse(l.dates) as string[],
      is_fixed: l.is_fixed === 1,
    })),
    booking: row.booking ? (JSON.parse(row.booking) as BookingRefRow) : null,
  };
}

// --- guards (cart_guard: each reason aborts the batch with its own message) ---------------

/**
 * The guard of a write to an existing cart, as one statement. Aborts with the first that applies:
 * 'cart_not_open' unless the cart is open and 'cart_expired' if its expiry passed at `now` (both
 * skipped with `open: false`, for a delete, which an abandoned cart takes too); 'cart_changed'
 * unless it is still at `revision` (the write decided on what it read of the cart: it reads again
 * and retries); and with `liveHolds`, 'hold_expired' when any of its holds has expired or been
 * released (a checkout racing an expiry can never book an expired hold).
 */
export function cartGuard(
  db: D1,
  businessId: number,
  cartId: string,
  now: Date,
  revision: number,
  options: { open?: boolean; liveHolds?: boolean } = {},
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cart_guard (reason, ok) SELECT reason, reason IS NULL FROM (SELECT CASE
         WHEN ?6 AND NOT EXISTS (SELECT 1 FROM carts WHERE id = ?1 AND business_id = ?2 AND status = 'open') THEN 'cart_not_open'
         WHEN ?6 AND NOT EXISTS (SELECT 1 FROM carts WHERE id = ?1 AND business_id = ?2 AND expires_at > ?3) THEN 'cart_expired'
         WHEN NOT EXISTS (SELECT 1 FROM carts WHERE id = ?1 AND business_id = ?2 AND revision = ?4) THEN 'cart_changed'
         WHEN ?5 AND EXISTS (SELECT 1 FROM allocations WHERE business_id = ?2 AND cart_id = ?1 AND booking_id IS NULL
                               AND (released_at IS NOT NULL OR expires_at IS NULL OR expires_at <= ?3)) THEN 'hold_expired'
       END AS reason)`,
    )
    .bind(cartId, businessId, stamp(now), revision, options.liveHolds ? 1 : 0, options.open === false ? 0 : 1);
}

/** Aborts with 'limit_open_carts' when the client already has `max` open, unexpired carts. */
export function openCartsGuard(db: D1, businessId: number, clientId: string, max: number, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cart_guard (reason, ok) SELECT 'limit_open_carts',
         (SELECT COUNT(*) FROM carts WHERE business_id = ? AND client_id = ? AND status = 'open' AND expires_at > ?) < ?`,
    )
    .bind(businessId, clientId, stamp(now), max);
}

/**
 * Aborts with 'limit_visitor_guests' when `adding` guests would take the guests of the client's
 * open, unexpired carts beyond `max` (migration 0173).
 */
export function visitorGuestsGuard(db: D1, businessId: number, clientId: string, adding: number, max: number, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cart_guard (reason, ok) SELECT 'limit_visitor_guests',
         (SELECT COUNT(*) FROM carts c JOIN cart_guests g ON g.cart_id = c.id
           WHERE c.business_id = ?1 AND c.client_id = ?2 AND c.status = 'open' AND c.expires_at > ?3) + ?4 <= ?5`,
    )
    .bind(businessId, clientId, stamp(now), adding, max);
}

/**
 * Aborts with 'limit_visitor_bookings' when the client already confirmed `perHour` bookings in the
 * hour before `now`, or `perDay` in the day before it (migration 0410).
 */
export function visitorBookingsGuard(db: D1, businessId: number, clientId: string, perHour: number, perDay: number, now: Date): D1PreparedStatement {
  const since = (ms: number) => isoDateTime(new Date(now.getTime() - ms));
  return db
    .prepare(
      `INSERT INTO cart_guard (reason, ok) SELECT 'limit_visitor_bookings',
         (SELECT COUNT(*) FROM carts WHERE business_id = ?1 AND client_id = ?2 AND status = 'checked_out' AND updated_at > ?3) < ?4
         AND (SELECT COUNT(*) FROM carts WHERE business_id = ?1 AND client_id = ?2 AND status = 'checked_out' AND updated_at > ?5) < ?6`,
    )
    .bind(businessId, clientId, since(3_600_000), perHour, since(86_400_000), perDay);
}

/** Aborts with 'limit_items' when adding `adding` guests would take the cart beyond `max` (items are guests). */
export function itemsGuard(db: D1, businessId: number, cartId: string, adding: number, max: number): D1PreparedStatement {
  return db
    .prepare("INSERT INTO cart_guard (reason, ok) SELECT 'limit_items', (SELECT COUNT(*) FROM cart_guests WHERE cart_id = ? AND business_id = ?) + ? <= ?")
    .bind(cartId, businessId, adding, max);
}

// --- writes ----------------------------------------------------------------------------------

export function insertCartStatement(
  db: D1,
  cart: { id: string; businessId: number; currency: string; clientId: string; expiresAt: Date; now: Date },
): D1PreparedStatement {
  const now = isoDateTime(cart.now);
  return db
    .prepare(
      `INSERT INTO carts (id, business_id, status, currency, client_id, expires_at, extensions, created_at, updated_at)
       VALUES (?, ?, 'open', ?, ?, ?, 0, ?, ?)`,
    )
    .bind(cart.id, cart.businessId, cart.currency, cart.clientId, stamp(cart.expiresAt), now, now);
}

/** A guest to add to a cart: its new id and its data as sent. */
export interface NewCartGuest {
  id: string;
  data: CartGuestData;
}

/** The INSERT of a cart's new guests, in order, as one statement (none for no guest). */
export function insertCartGuestsStatements(db: D1, businessId: number, cartId: string, guests: NewCartGuest[], now: Date): D1PreparedStatement[] {
  return insertRowsStatements(
    db,
    "cart_guests",
    { cart_id: cartId, business_id: businessId, created_at: isoDateTime(now) },
    ["id", "data", "package_id", "start_date", "end_date"],
    guests.map((g) => [g.id, JSON.stringify(g.data), g.data.package.id, g.data.package.start_date, g.data.package.end_date]),
  );
}

export interface NewCartLine {
  cart_guest_id: string;
  product_id: number;
  package_item_id: number | null;
  role: string;
  dates: string[];
  qty: number;
  price_minor: number;
  is_fixed: boolean;
}

/** The INSERT of a cart's new lines, in order (their ids follow it), as one statement (none for no line). */
export function insertCartLinesStatements(db: D1, businessId: number, cartId: string, lines: NewCartLine[]): D1PreparedStatement[] {
  return insertRowsStatements(
    db,
    "cart_lines",
    { cart_id: cartId, business_id: businessId },
    ["cart_guest_id", "product_id", "package_item_id", "role", "dates", "qty", "price_minor", "is_fixed"],
    lines.map((l) => [l.cart_guest_id, l.product_id, l.package_item_id, l.role, JSON.stringify(l.dates), l.qty, l.price_minor, l.is_fixed ? 1 : 0]),
  );
}

export function touchCartStatement(db: D1, businessId: number, cartId: string, now: Date) {
  return db.prepare("UPDATE carts SET updated_at = ?, revision = revision + 1 WHERE id = ? AND business_id = ?").bind(isoDateTime(now), cartId, businessId);
}

/** Moves an open cart's expiry and counts the extension. */
export function extendCartStatement(db: D1, businessId: number, cartId: string, expiresAt: Date, now: Date) {
  return db
    .prepare("UPDATE carts SET expires_at = ?, extensions = extensions + 1, updated_at = ?, revision = revision + 1 WHERE id = ? AND business_id = ? AND status = 'open'")
    .bind(stamp(expiresAt), isoDateTime(now), cartId, businessId);
}

/** Marks an open cart abandoned (idempotent: a cart no longer open is left alone). */
export function abandonCartStatement(db: D1, businessId: number, cartId: string, reason: "expired" | "deleted", now: Date) {
  return db
    .prepare("UPDATE carts SET status = 'abandoned', abandon_reason = ?, updated_at = ?, revision = revision + 1 WHERE id = ? AND business_id = ? AND status = 'open'")
    .bind(reason, isoDateTime(now), cartId, businessId);
}

/** How long past its expiry the scheduled upkeep leaves a cart to its business's timer. */
export const STRAY_CART_GRACE_MS = 60_000;
/** The most carts one expiry sweep takes (the next sweep takes the rest). */
export const EXPIRED_CARTS_PER_SWEEP = 50;

/**
 * Sweeps the business's open carts whose expiry is at or before `expiredBy`: their holds are
 * released, then the carts marked abandoned (expired), in the caller's batch, the same carts both
 * times (the second statement sees what the first left), at most EXPIRED_CARTS_PER_SWEEP. The
 * last statement's `changes` is the number of carts swept. Idempotent; an expired hold never
 * counts anyway, so this only tidies up. Found through the open carts' expiry index.
 */
export function expireCartsStatements(db: D1, businessId: number, now: Date, expiredBy: Date = now): D1PreparedStatement[] {
  const expired = `SELECT id FROM carts WHERE business_id = ?2 AND status = 'open' AND expires_at <= ?3 ORDER BY expires_at LIMIT ${EXPIRED_CARTS_PER_SWEEP}`;
  const cutoff = stamp(expiredBy);
  return [
    db
      .prepare(`UPDATE allocations SET released_at = ?1 WHERE business_id = ?2 AND booking_id IS NULL AND released_at IS NULL AND cart_id IN (${expired})`)
      .bind(stamp(now), businessId, cutoff),
    db
      .prepare(`UPDATE carts SET status = 'abandoned', abandon_reason = 'expired', updated_at = ?1, revision = revision + 1 WHERE id IN (${expired})`)
      .bind(isoDateTime(now), businessId, cutoff),
  ];
}

/** The earliest expiry among the business's open carts (`next`, null when none), through the same index. */
export function nextExpiryStatement(db: D1, businessId: number): D1PreparedStatement {
  return db.prepare("SELECT MIN(expires_at) AS next FROM carts WHERE business_id = ? AND status = 'open'").bind(businessId);
}

/** Marks the open cart checked out with its booking. */
export function checkOutCartStatement(db: D1, businessId: number, cartId: string, bookingId: string, now: Date) {
  return db
    .prepare("UPDATE carts SET status = 'checked_out', booking_id = ?, updated_at = ?, revision = revision + 1 WHERE id = ? AND business_id = ? AND status = 'open'")
    .bind(bookingId, isoDateTime(now), cartId, businessId);
}

export interface NewBooking {
  id: string;
  businessId: number;
  cartId: string;
  referenceYear: string;
  currency: string;
  totalMinor: number;
  totalDefaultMinor: number;
  startDate: string;
  endDate: string;
  locationId: number | null;
  newsletterOptIn: boolean;
  now: Date;
}

/** INSERT of the booking with the next reference number of its business and year (inside the batch, so two checkouts never share one). */
export function insertBookingStatement(db: D1, b: NewBooking): D1PreparedStatement {
  const now = isoDateTime(b.now);
  return db
    .prepare(
      `INSERT INTO bookings (id, business_id, cart_id, reference_number, reference_year, status, currency, total_minor,
                             total_default_minor, start_date, end_date, location_id, newsletter_opt_in, created_at, updated_at)
       SELECT ?1, ?2, ?3, COALESCE(MAX(reference_number), 0) + 1, ?4, 'confirmed', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12
         FROM bookings WHERE business_id = ?2 AND reference_year = ?4`,
    )
    .bind(b.id, b.businessId, b.cartId, b.referenceYear, b.currency, b.totalMinor, b.totalDefaultMinor, b.startDate, b.endDate, b.locationId, b.newsletterOptIn ? 1 : 0, now);
}

/** INSERT of the booking's lines from the cart's lines; each line's guest is its cart guest's id. */
export function insertBookingLinesStatement(db: D1, businessId: number, cartId: string, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO booking_lines (id, booking_id, business_id, guest_id, product_id, product_type, package_item_id, role, dates, qty, price_minor)
       SELECT ${lastIdSql("booking_lines")} + ROW_NUMBER() OVER (ORDER BY l.id), ?, l.business_id, l.cart_guest_id, l.product_id, COALESCE(p.type, ''), l.package_item_id, l.role, l.dates, l.qty, l.price_minor
         FROM cart_lines l LEFT JOIN products p ON p.id = l.product_id
        WHERE l.cart_id = ? AND l.business_id = ? ORDER BY l.id`,
    )
    .bind(bookingId, cartId, businessId);
}

/** The package products' location (a booking's location is its first package's). */

// --- paying online at checkout (migration 0520) --------------------------------------------

/**
 * The cart waits for its payment: the checkout request saved, the Checkout Session named, and the
 * cart's expiry and its live holds moved to `holdUntil` (the session's expiry and a grace). Put it
 * after the cart's guard (revision, live holds) in the same batch.
 */
export function awaitPaymentStatements(
  db: D1,
  businessId: number,
  cartId: string,
  p: { sessionId: string; url: string; amountMinor: number; sessionExpiresAt: Date; holdUntil: Date; request: unknown },
  now: Date,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE carts SET payment_state = 'awaiting', payment_session = ?1, payment_url = ?2, payment_amount_minor = ?3, payment_expires_at = ?4,
                checkout_request = ?5, expires_at = ?6, updated_at = ?7, revision = revision + 1
          WHERE id = ?8 AND business_id = ?9 AND status = 'open'`,
      )
      .bind(p.sessionId, p.url, p.amountMinor, stamp(p.sessionExpiresAt), JSON.stringify(p.request), stamp(p.holdUntil), isoDateTime(now), cartId, businessId),
    db
      .prepare("UPDATE allocations SET expires_at = ? WHERE business_id = ? AND cart_id = ? AND booking_id IS NULL AND released_at IS NULL")
      .bind(stamp(p.holdUntil), businessId, cartId),
  ];
}

/** The checkout request a cart waiting for its payment saved (null when none). */
export async function savedCheckoutRequest(db: D1, businessId: number, cartId: string): Promise<string | null> {
  return (await db.prepare("SELECT checkout_request FROM carts WHERE id = ? AND business_id = ?").bind(cartId, businessId).first<{ checkout_request: string | null }>())?.checkout_request ?? null;
}

/**
 * The batch goes on only while the cart still waits for this session's payment and is not booked
 * (else it aborts with guard_failed): a paid session books its cart once, however often Stripe
 * tells it. A cart its expiry swept meanwhile still waits (its holds are taken again, below).
 */
export function paymentPendingGuard(db: D1, businessId: number, cartId: string, sessionId: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO batch_guard (reason, ok) SELECT 'cart_not_awaiting_payment', EXISTS (SELECT 1 FROM carts
         WHERE id = ? AND business_id = ? AND payment_session = ? AND payment_state = 'awaiting' AND booking_id IS NULL AND status <> 'checked_out')`,
    )
    .bind(cartId, businessId, sessionId);
}

/**
 * A paid cart's holds that lapsed (expired, or released by its sweep) taken again as new holds
 * until `until`, through the capacity trigger (aborts 'sold_out' when the places are gone), and
 * the lapsed ones released: the checkout that follows converts the live ones. Nothing when every
 * hold is still live.
 */
export function retakeLapsedHoldsStatements(db: D1, businessId: number, cartId: string, now: Date, until: Date): D1PreparedStatement[] {
  const lapsed = "business_id = ?2 AND cart_id = ?3 AND booking_id IS NULL AND (released_at IS NOT NULL OR expires_at IS NULL OR expires_at <= ?1)";
  return [
    db
      .prepare(
        `INSERT INTO allocations (id, business_id, product_id, date, slot, qty, cart_id, booking_id, expires_at, released_at, created_at)
         SELECT ${lastIdSql("allocations")} + ROW_NUMBER() OVER (ORDER BY id), business_id, product_id, date, slot, qty, cart_id, NULL, ?4, NULL, ?1
           FROM allocations WHERE ${lapsed} ORDER BY id`,
      )
      .bind(stamp(now), businessId, cartId, stamp(until)),
    db.prepare(`UPDATE allocations SET released_at = COALESCE(released_at, ?1) WHERE ${lapsed} AND expires_at <> ?4`).bind(stamp(now), businessId, cartId, stamp(until)),
  ];
}

/** The paid cart checked out with its booking (whatever its sweep made of it meanwhile). */
export function checkOutPaidCartStatement(db: D1, businessId: number, cartId: string, bookingId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE carts SET status = 'checked_out', abandon_reason = NULL, booking_id = ?, payment_state = 'paid', updated_at = ?, revision = revision + 1
        WHERE id = ? AND business_id = ? AND payment_state = 'awaiting' AND booking_id IS NULL`,
    )
    .bind(bookingId, isoDateTime(now), cartId, businessId);
}

/**
 * A cart's payment ended without a booking (its session expired or failed, DELETE canceled it, or
 * it was refunded): the cart abandoned (`reason`) and its holds released. Only while it waits for
 * that session (a refund also after it expired or was canceled) and is not booked: an event after
 * the cart was booked changes nothing.
 */
export function endCartPaymentStatements(
  db: D1,
  businessId: number,
  cartId: string,
  sessionId: string,
  state: "expired" | "canceled" | "refunded",
  reason: "expired" | "deleted",
  now: Date,
  refundId: string | null = null,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE carts SET status = 'abandoned', abandon_reason = COALESCE(CASE WHEN status = 'abandoned' THEN abandon_reason END, ?1), payment_state = ?2,
                payment_refund = COALESCE(?3, payment_refund), updated_at = ?4, revision = revision + 1
          WHERE id = ?5 AND business_id = ?6 AND payment_session = ?7 AND booking_id IS NULL
            AND (payment_state = 'awaiting' OR (?2 = 'refunded' AND payment_state IN ('expired', 'canceled')))`,
      )
      .bind(reason, state, refundId, isoDateTime(now), cartId, businessId, sessionId),
    releaseCartHoldsStatement(db, businessId, cartId, now),
  ];
}
