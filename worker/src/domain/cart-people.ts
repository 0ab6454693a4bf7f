/**
 * The people of a cart: the business's rules for guests and the customer (required fields, age),
 * and their translation into Persons for checkout. Pure.
 */
import type { CartGuestInput, Customer } from "../contract/cart";
import type { BusinessConfig, CustomField } from "../contract/config";
import { customFieldErrors, fieldsFor, keptAnswers } from "./custom-fields";
import type { FieldError } from "../lib/errors";
import { type PersonInput } from "./persons";

/** Whole years from `birth` to `on` (both 'YYYY-MM-DD'). */
export function ageOn(birth: string, on: string): number {
  const years = Number(on.slice(0, 4)) - Number(birth.slice(0, 4));
  return on.slice(5) < birth.slice(5) ? years - 1 : years;
}

export const normEmail = (email: string | undefined | null) => (email ? email.trim().toLowerCase() : null);

/**
 * Field errors of guests being added to a cart: a stay that starts today or later (`today` is the
 * business's date in its time zone: nothing before it is bookable), birth date required when the
 * business says so, not in the future, the minimum age reached on the package's start date, and
 * an e-mail no other guest of the cart has (`cartEmails`, normalized), and a diet and level the
 * business has.
 */
export function guestErrors(
  guests: CartGuestInput[],
  config: BusinessConfig,
  today: string,
  cartEmails: Set<string>,
  known: { dietIds: ReadonlySet<number>; levelIds: ReadonlySet<number> },
): FieldError[] {
  const errors: FieldError[] = [];
  const rules = config.guest_fields;
  guests.forEach((g, i) => {
    const path = `guests.${i}`;
    errors.push(...customFieldErrors(config.custom_fields, "guest", g.custom_fields, path));
    if (g.package.start_date < today) {
      errors.push({ path: `${path}.package.start_date`, message: `must not be before today (${today} in the business's time zone, ${config.time_zone})` });
    }
    if (g.diet_id !== undefined && !known.dietIds.has(g.diet_id)) errors.push({ path: `${path}.diet_id`, message: "is not one of this business's diets" });
    if (g.level_id !== undefined && !known.levelIds.has(g.level_id)) errors.push({ path: `${path}.level_id`, message: "is not one of this business's levels" });
    if (!g.birth_date) {
      if (rules.birthday.required) errors.push({ path: `${path}.birth_date`, message: "is required by this business" });
    } else if (g.birth_date > today) {
      errors.push({ path: `${path}.birth_date`, message: "must not be in the future" });
    } else if (rules.minimum_age > 0 && ageOn(g.birth_date, g.package.start_date) < rules.minimum_age) {
      errors.push({ path: `${path}.birth_date`, message: `guests must be at least ${rules.minimum_age} years old on the start date` });
    }
    const email = normEmail(g.email);
    if (email && cartEmails.has(email)) errors.push({ path: `${path}.email`, message: "another guest of this cart already has this e-mail" });
  });
  return errors;
}

let countryNames: Map<string, string> | null = null;

/** ISO 3166-1 alpha-2 code of a country given by its English name or by its code; null when unknown. */
export function countryCode(input: string, knownCodes: readonly string[]): string | null {
  const value = input.trim();
  if (/^[A-Za-z]{2}$/.test(value) && knownCodes.includes(value.toUpperCase())) return value.toUpperCase();
  if (!countryNames) {
    countryNames = new Map();
    try {
      const names = new Intl.DisplayNames(["en"], { type: "region" });
      for (const code of knownCodes) {
        const name = names.of(code);
        if (name && name !== code) countryNames.set(name.toLowerCase(), code);
      }
    } catch {
      // a runtime without region names: only codes are recognised
    }
    // Common English names that differ from the CLDR ones.
    for (const [name, code] of [["usa", "US"], ["united states of america", "US"], ["uk", "GB"], ["great britain", "GB"], ["england", "GB"], ["holland", "NL"], ["czech republic", "CZ"], ["russia", "RU"], ["south korea", "KR"]] as const) {
      if (knownCodes.includes(code)) countryNames.set(name, code);
    }
  }
  return countryNames.get(value.toLowerCase()) ?? null;
}

/**
 * Field errors of the checkout's customer: phone and address when the business requires them,
 * birth date not in the future and the customer's minimum age reached today, a known country.
 */
export function customerErrors(customer: Customer, config: BusinessConfig, today: string, knownCodes: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const rules = config.customer_fields;
  const missing = (field: keyof Customer) => {
    const v = customer[field];
    if (v === undefined || v === null || String(v).trim() === "") errors.push({ path: `customer.${field}`, message: "is required by this business" });
  };
  if (rules.phone.required) missing("phone");
  if (rules.address.required) (["address_line_1", "city", "zipcode", "country"] as const).forEach(missing);
  if (customer.birth_date) {
    if (customer.birth_date > today) errors.push({ path: "customer.birth_date", message: "must not be in the future" });
    else if (rules.minimum_age > 0 && ageOn(customer.birth_date, today) < rules.minimum_age) {
      errors.push({ path: "customer.birth_date", message: `the customer must be at least ${rules.minimum_age} years old` });
    }
  }
  errors.push(...customFieldErrors(config.custom_fields, "customer", customer.custom_fields, "customer"));
  if (customer.country && customer.country.trim() !== "" && !countryCode(customer.country, knownCodes)) {
    errors.push({ path: "customer.country", message: "is not a country name in English (or an ISO 3166-1 alpha-2 code) we know" });
  }
  return errors;
}

const gender = (g: "m" | "f" | undefined): "male" | "female" | null => (g === "m" ? "male" : g === "f" ? "female" : null);

/** The Person data a cart guest enters (the public API's m/f become male/female; its answers, as kept in the cart). */
export function guestPerson(g: Pick<CartGuestInput, "first_name" | "last_name" | "email" | "gender" | "language_code" | "birth_date" | "diet_id" | "level_id"> & { custom_fields?: Record<string, unknown> }) {
  return {
    ...(g.custom_fields && Object.keys(g.custom_fields).length ? { custom_fields: g.custom_fields } : {}),
    diet_id: g.diet_id ?? null,
    level_id: g.level_id ?? null,
    first_name: g.first_name,
    last_name: g.last_name,
    email: g.email ?? null,
    gender: gender(g.gender),
    language_code: g.language_code ?? null,
    birth_date: g.birth_date ?? null,
  };
}

/** The Person data of the checkout's customer, who becomes the booking's Booker (its answers to the customer's questions, `fields`). */
export function customerPerson(c: Customer, knownCodes: readonly string[], fields: readonly CustomField[] = []): PersonInput {
  const person: Record<string, unknown> = {
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
  };
  const set = (key: string, value: string | number | undefined | null) => {
    if (value !== undefined && value !== null && String(value).trim() !== "") person[key] = String(value).trim();
  };
  if (c.gender) person.gender = gender(c.gender);
  set("language_code", c.language_code);
  set("birth_date", c.birth_date);
  set("phone", c.phone?.replace(/[\s()./-]/g, ""));
  set("phone_country_calling_code", c.phone_countrycode);
  set("address_line_1", c.address_line_1);
  set("address_line_2", c.address_line_2);
  set("city", c.city);
  set("state", c.state);
  set("zip_code", c.zipcode);
  if (c.country) set("country_code", countryCode(c.country, knownCodes));
  const answers = keptAnswers(fieldsFor(fields, "customer"), c.custom_fields);
  if (Object.keys(answers).length) person.custom_fields = answers;
  return person as PersonInput;
}
