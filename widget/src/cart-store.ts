/**
 * The cart id lives in the host page's own localStorage (first-party to the site that embeds
 * the widget), so it survives a reload and is shared by a second tab, and no third-party
 * cookie is needed. Other tabs learn of changes through the `storage` event.
 */
export interface StoredCart {
  id: string;
  expiry_date: string;
  currency: string;
}

const keyFor = (business: string) => `booking-widget:${business}:cart`;

export function loadCart(business: string): StoredCart | null {
  try {
    const raw = localStorage.getItem(keyFor(business));
    const parsed = raw ? (JSON.parse(raw) as StoredCart) : null;
    return parsed && typeof parsed.id === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export function saveCart(business: string, cart: StoredCart | null): void {
  try {
    if (cart) localStorage.setItem(keyFor(business), JSON.stringify(cart));
    else localStorage.removeItem(keyFor(business));
  } catch {
    /* storage disabled (private mode): the cart lives as long as the page */
  }
}

/** Call `onChange` when another tab changes this business's cart. Returns the unsubscribe. */
export function watchCart(business: string, onChange: (cart: StoredCart | null) => void): () => void {
  const listener = (e: StorageEvent) => {
    if (e.key === keyFor(business)) onChange(loadCart(business));
  };
  window.addEventListener("storage", listener);
  return () => window.removeEventListener("storage", listener);
}

/**
 * The language the guest picked in the switcher, per business, beside the cart: a reload shows
 * the widget (and the cart) in it again. The element's `language` attribute still wins over it;
 * it wins over the page's own `<html lang>`.
 */
const languageKey = (business: string) => `booking-widget:${business}:language`;

export function loadLanguage(business: string): string | undefined {
  try {
    return localStorage.getItem(languageKey(business)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveLanguage(business: string, language: string): void {
  try {
    localStorage.setItem(languageKey(business), language);
  } catch {
    /* storage disabled: the choice lives as long as the page */
  }
}
