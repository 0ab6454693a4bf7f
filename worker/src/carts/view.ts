/**
 * The cart's answer shape: its guests with their items, and its totals (domain/totals.ts), in
 * major units of the cart's currency. The checkout's answer shows its guests the same way.
 */
import type { Cart, CartGuest, CartItem } from "../contract/cart";
import { stamp } from "../db/allocations";
import type { CartContents, CartLineRow } from "../db/carts";
import { effectiveState } from "../domain/cart-state";
import { type CatalogSnapshot } from "../domain/catalog";
import { currencyOfCart, minorDigits, toMajor } from "../domain/money";
import { translated } from "../domain/product";
import { referenceOf } from "../domain/reference";
import { linesTotal, totalsOf } from "../domain/totals";
import { isoDateTime } from "../lib/time";

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
      gender: d.gender ?? null,
      language_code: d.language_code ?? null,
      birth_date: d.birth_date ?? null,
      custom_fields: d.custom_fields ?? {},
      package: {
        id: g.package_id,
        title: titleOf(g.package_id, g.package_title),
        start_date: g.start_date,
        end_date: g.end_date,
        accommodation_id: d.package.accommodation_id ?? null,
        srs: d.package.srs === true,
      },
      items: lines.map((l) => itemView(l, major, titleOf(l.product_id, l.title))),
      total: major(linesTotal(lines)),
    };
  });
}

/** GET /carts/{cart_id}'s answer. */
export function cartView(contents: CartContents, snap: CatalogSnapshot, now: Date): Cart {
  const { cart, booking } = contents;
  const config = snap.business.config;
  const state = effectiveState(cart, stamp(now));
  const open = state.status === "open";
  const totals = totalsOf(contents.lines, currencyOfCart(snap.currencies, cart.currency));
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
    total: toMajor(totals.total, totals.digits),
    booking: booking
      ? { id: booking.id, reference: referenceOf(booking.reference_year, booking.reference_number), reference_number: booking.reference_number, reference_year: booking.reference_year }
      : null,
    ...(cart.payment_state
      ? {
          payment: {
            status: cart.payment_state,
            url: cart.payment_state === "awaiting" ? cart.payment_url : null,
            amount: toMajor(cart.payment_amount_minor ?? 0, totals.digits),
            currency: cart.currency,
            expires_at: cart.payment_expires_at ?? cart.expires_at,
          },
        }
      : {}),
  };
}
