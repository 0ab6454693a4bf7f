import type { WidgetLanguage } from "../../../worker/src/contract/languages";
import { en, type FirstStrings } from "./en";
import type { CheckoutStrings } from "./en-checkout";

/**
 * Every text of the widget, per language, in two halves: the first screen's (with the errors
 * and the cart's hold, which can come at any time) and the checkout steps' (room, extras,
 * guests, cart, checkout, done). English's first half is in widget.js; every other half is a
 * chunk of its own, fetched when a page or a guest picks the language (alongside the first API
 * call, so the first paint still waits for one round trip), the checkout halves together with
 * the checkout steps.
 */
export type Strings = FirstStrings & CheckoutStrings;
export type { FirstStrings, CheckoutStrings };

// Keyed by the contract's list of the widget's languages (the back office's Settings reads it).
const firstHalves: Record<WidgetLanguage, () => Promise<FirstStrings>> = {
  en: async () => en,
  de: () => import("./de").then((m) => m.de),
  es: () => import("./es").then((m) => m.es),
  pt: () => import("./pt").then((m) => m.pt),
  fr: () => import("./fr").then((m) => m.fr),
  it: () => import("./it").then((m) => m.it),
  nl: () => import("./nl").then((m) => m.nl),
};
const checkoutHalves: Record<WidgetLanguage, () => Promise<CheckoutStrings>> = {
  en: () => import("./en-checkout").then((m) => m.enCheckout),
  de: () => import("./de-checkout").then((m) => m.deCheckout),
  es: () => import("./es-checkout").then((m) => m.esCheckout),
  pt: () => import("./pt-checkout").then((m) => m.ptCheckout),
  fr: () => import("./fr-checkout").then((m) => m.frCheckout),
  it: () => import("./it-checkout").then((m) => m.itCheckout),
  nl: () => import("./nl-checkout").then((m) => m.nlCheckout),
};
const loaded = new Map<string, Promise<unknown>>();

/** Whether the widget's texts exist in this language. */
export const hasStrings = (language: string): boolean => Object.hasOwn(firstHalves, language);

function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let table = loaded.get(key) as Promise<T> | undefined;
  if (!table) {
    table = load();
    loaded.set(key, table);
    table.catch(() => loaded.delete(key)); // fetched again next time
  }
  return table;
}

/** The first half in a language; English for one the widget has none of (or whose chunk failed to load). */
export function loadStrings(language: string): Promise<FirstStrings> {
  const lang = hasStrings(language) ? language : "en";
  return once(`${lang}:first`, firstHalves[lang as WidgetLanguage]).catch(() => en);
}

/** The checkout steps' half in a language (English for one the widget has none of). */
export function loadCheckoutStrings(language: string): Promise<CheckoutStrings> {
  const lang = hasStrings(language) ? language : "en";
  return once(`${lang}:checkout`, checkoutHalves[lang as WidgetLanguage]);
}

export { en as fallbackStrings };

/** Fill `{name}` placeholders (the same function as the e-mails' texts). */
export { fill } from "../../../worker/src/contract/fill";
