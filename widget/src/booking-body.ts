/**
 * What the guest's choices become when they are sent: the guests' forms for the party, the body
 * of POST /bookings/add (and the same holds again from an expired cart), and the checks of the
 * guests' details before sending. Only the later steps need it (party.ts, cart.ts, in the checkout
 * steps' chunk), so it is kept out of widget.js (selection.ts holds what the first screen needs).
 */
import type { AddToCartBody, Cart, PackageRoot } from "./api/client";
import { ageOn } from "./format";
import { allItems, endDate, type FieldErrors, type GuestForm, type Selection } from "./selection";

export const emptyGuest = (gender: "m" | "f", genderEditable = false): GuestForm => ({
  first_name: "", last_name: "", email: "", gender, birth_date: "", diet_id: "", level_id: "", genderEditable,
});

/** The guests a party stands for: men, women, then each couple as two. */
export function partyGenders(s: Pick<Selection, "males" | "females" | "couples">): { gender: "m" | "f"; couple: boolean }[] {
  return [
    ...Array.from({ length: s.males }, () => ({ gender: "m" as const, couple: false })),
    ...Array.from({ length: s.females }, () => ({ gender: "f" as const, couple: false })),
    ...Array.from({ length: s.couples }, () => [{ gender: "m" as const, couple: true }, { gender: "f" as const, couple: true }]).flat(),
  ];
}

/** Keep what was typed for guests that remain when the party changes. */
export function resizeGuests(previous: GuestForm[], s: Pick<Selection, "males" | "females" | "couples">): GuestForm[] {
  return partyGenders(s).map((p, i) => {
    const old = previous[i];
    if (old) return { ...old, gender: p.couple ? old.gender : p.gender, genderEditable: p.couple };
    return emptyGuest(p.gender, p.couple);
  });
}

/** The items payload: options, alternatives and upgrades with at least one date, and default items at the times chosen for them. */
export function itemsPayload(s: Selection, pkg: PackageRoot | null): { package_item_id: number; dates: string[] }[] {
  const known = new Set(allItems(pkg).filter((i) => i.role !== "default" || i.product.is_on_timeslots).map((i) => i.package_item_id));
  return Object.entries(s.items)
    .map(([id, dates]) => ({ package_item_id: Number(id), dates: [...dates].sort() }))
    .filter((i) => known.has(i.package_item_id) && i.dates.length > 0);
}

/** The body of POST /bookings/add for the party and its details. */
export function addToCartBody(s: Selection, pkg: PackageRoot | null, guests: GuestForm[], currency: string, language: string, cartId?: string, rooms = true): AddToCartBody {
  const end = endDate(s)!;
  const items = itemsPayload(s, pkg);
  return {
    currency,
    ...(cartId ? { cart_id: cartId } : {}),
    guests: guests.map((g) => ({
      first_name: g.first_name.trim(),
      last_name: g.last_name.trim(),
      ...(g.email.trim() ? { email: g.email.trim() } : {}),
      ...(rooms ? { gender: g.gender } : {}),
      language_code: language,
      ...(g.birth_date ? { birth_date: g.birth_date } : {}),
      ...(g.diet_id ? { diet_id: Number(g.diet_id) } : {}),
      ...(g.level_id ? { level_id: Number(g.level_id) } : {}),
      package: {
        id: s.productId!,
        start_date: s.startDate!,
        end_date: end,
        ...(s.accommodationId ? { accommodation_id: s.accommodationId } : {}),
        ...(s.srs ? { srs: true } : {}),
        ...(items.length ? { items } : {}),
      },
    })),
  } as AddToCartBody;
}

/** The same holds again, from what the server shows of a cart (after it expired). */
export function rebuildBody(cart: Cart): AddToCartBody {
  return {
    currency: cart.currency,
    guests: cart.guests.map((g) => ({
      first_name: g.first_name,
      last_name: g.last_name,
      ...(g.email ? { email: g.email } : {}),
      ...(g.gender ? { gender: g.gender } : {}),
      ...(g.language_code ? { language_code: g.language_code } : {}),
      ...(g.birth_date ? { birth_date: g.birth_date } : {}),
      ...(g.custom_fields && Object.keys(g.custom_fields).length ? { custom_fields: g.custom_fields } : {}),
      package: {
        id: g.package.id,
        start_date: g.package.start_date,
        end_date: g.package.end_date,
        ...(g.package.accommodation_id ? { accommodation_id: g.package.accommodation_id } : {}),
        ...(g.package.srs ? { srs: true } : {}),
        items: g.items
          // chosen items, and default items at the times chosen for them
          .filter((i) => i.package_item_id !== null && (["option", "alternative", "upgrade"].includes(i.role) || (i.role === "default" && i.dates.some((d) => d.length > 10))))
          .map((i) => ({ package_item_id: i.package_item_id!, dates: i.dates })),
      },
    })),
  };
}

/** Client-side checks of the guests' details, keyed like the server's paths ("guests.0.first_name"). */
export function validateGuests(
  guests: GuestForm[],
  rules: { birthdayRequired: boolean; minimumAge: number; startDate: string },
  msg: { required: string; tooYoung: string; invalidEmail: string },
): FieldErrors {
  const errors: FieldErrors = {};
  const emailRe = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  guests.forEach((g, i) => {
    if (!g.first_name.trim()) errors[`guests.${i}.first_name`] = msg.required;
    if (!g.last_name.trim()) errors[`guests.${i}.last_name`] = msg.required;
    if (g.email.trim() && !emailRe.test(g.email.trim())) errors[`guests.${i}.email`] = msg.invalidEmail;
    if (!g.birth_date && rules.birthdayRequired) errors[`guests.${i}.birth_date`] = msg.required;
    if (g.birth_date && rules.minimumAge > 0 && ageOn(g.birth_date, rules.startDate) < rules.minimumAge) errors[`guests.${i}.birth_date`] = msg.tooYoung;
  });
  return errors;
}

