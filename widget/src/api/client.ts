import type { AddToCartBody, AwaitingPayment, Booking, Cart, CartGuest, CheckoutBody } from "../../../worker/src/contract/cart";
import type { Settings } from "../../../worker/src/contract/settings";

export type { AddToCartBody, AwaitingPayment, Booking, Cart, CartGuest, CheckoutBody, Settings };

/** What went wrong, in the terms the widget reacts to (each kind has its own message and way out). */
export type ApiErrorKind = "network" | "rate_limited" | "sold_out" | "cart_expired" | "cart_not_open" | "validation" | "not_found" | "origin" | "human_check" | "payment" | "server";

export class WidgetApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    readonly fieldErrors: { path: string; message: string }[] = [],
    readonly retryAfter = 0,
    readonly code = "",
  ) {
    super(message);
  }
}

/** Map a problem+json answer (or its absence) to a kind. */
export function classify(status: number, body: { code?: string; detail?: string; errors?: { path: string; message: string }[] } | null, retryAfter: string | null): WidgetApiError {
  const code = body?.code ?? "";
  const detail = body?.detail ?? `HTTP ${status}`;
  const kind: ApiErrorKind =
    status === 429 || code === "rate_limited" ? "rate_limited"
    : code === "sold_out" ? "sold_out"
    : code === "cart_expired" || status === 410 ? "cart_expired"
    : code === "cart_not_open" ? "cart_not_open"
    : code === "origin_not_allowed" ? "origin"
    : code === "human_check_failed" ? "human_check"
    : code.startsWith("stripe_") ? "payment"
    : status === 422 || status === 400 ? "validation"
    : status === 404 ? "not_found"
    : "server";
  return new WidgetApiError(kind, status, detail, body?.errors ?? [], Math.max(1, Number(retryAfter) || 0), code);
}

export interface Product {
  id: number;
  type: string;
  title: string;
  description: string;
  extended_description?: string;
  image?: { small?: string; medium?: string; large?: string };
  duration: { is_flexible: boolean; min: number; default: number; unit: string; variants: number[] };
  pax: { min: number; max: number };
  allowed_checkin_days: Record<string, boolean>;
  is_on_timeslots: boolean;
  price_from?: { value: number; currency: string }[];
}

/** A room type of a package, as the calendar lists them. */
export interface RoomType {
  id: number;
  title: string;
  is_private: boolean;
  gender: string | null;
  beds_per_room: number | null;
}

export interface DayEntry {
  available_for_checkin?: boolean;
  /** On a package's check-in day: what is left of each room type for the whole stay (null: unlimited). */
  rooms?: Record<string, number | null>;
  available_for_checkout?: boolean;
  blocked?: boolean;
  available?: number | string | null;
  capacity?: number | string | null;
  timeslots?: { time: string; available: number; capacity: number }[] | null;
  price: number | null;
}

export interface CalendarWindow {
  from: string;
  to: string;
  currency: string;
  duration: number | null;
  dates: Record<string, DayEntry>;
  /** A package's room types (null for other products). */
  rooms?: RoomType[] | null;
}

export interface PackageItem {
  package_item_id: number;
  role: "default" | "alternative" | "option" | "upgrade";
  product: { id: number; type: string; title: string; description?: string; is_on_timeslots: boolean; price?: { value: number; currency: string; from_price?: boolean } };
  qty: { min: number; max: number; default: number };
  price: { value: number; currency: string; type?: string };
  is_configurable_dates: boolean;
  dates: { date: string; available: number | string | null; capacity: number | string | null; timeslots: { time: string; available: number; capacity: number }[] | null }[];
}

export interface PackageRoot {
  start_date: string;
  end_date: string;
  single_items: PackageItem[];
  groups: { is_configurable_dates: boolean; items: PackageItem[] }[];
}

export interface AccommodationOption {
  start_date: string;
  end_date: string;
  available: number;
  price: { type: string; value: number; currency: string };
  product: Product & { gender?: string | null; is_private?: boolean; srs: { charge: number; fixed: boolean } | null };
}

export interface Bootstrap {
  business: string;
  today: string;
  language: string;
  currency: string;
  settings: Settings;
  /** The business's saved theme (settings widget_theme): `--bw-*` names to values. */
  theme?: Record<string, string>;
  /** The business's human check at checkout (Cloudflare Turnstile), when it has one. */
  human_check?: { provider: "turnstile"; site_key: string } | null;
  /** Whether the guest pays online at checkout (the business's payment policy): first (pay_to_confirm) or right after booking. */
  payment?: { pay_to_confirm: boolean } | null;
  products: Product[];
  product: Product | null;
  start_date: string | null;
  calendar: CalendarWindow | null;
  package: PackageRoot | null;
}

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * JSON of a request body that ignores the host page's prototypes: an old page that defines
 * `Array.prototype.toJSON` (Prototype.js) would otherwise turn every array into a string. The
 * replacer hands back each value as it is in its holder, before any `toJSON` touched it.
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string) {
    return this[key];
  });
}

/** The widget's only door to the service: the edge proxy /widget/v1/{business}/... */
export class WidgetApi {
  /**
   * The service's latest D1 bookmark (`X-D1-Bookmark` of its answers), sent back once this guest has
   * written something (a cart), so that the next reads, even from a replica far from the
   * business's database, see that write (docs/design.md "D1 sessions"). Before that, reads go without
   * it: a header of its own would make every GET a preflighted request, and there is nothing of
   * the guest's own to see yet.
   */
  private bookmark = "";
  private wrote = false;

  constructor(
    readonly base: string,
    readonly business: string,
  ) {}

  private url(path: string, query: Query = {}): string {
    const u = new URL(`${this.base.replace(/\/$/, "")}/widget/v1/${encodeURIComponent(this.business)}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") u.searchParams.set(k, String(v));
    return u.toString();
  }

  async request<T>(method: string, path: string, options: { query?: Query; body?: unknown; idempotencyKey?: string; signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
    if (this.wrote && this.bookmark) headers["X-D1-Bookmark"] = this.bookmark;
    let res: Response;
    try {
      res = await fetch(this.url(path, options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : toJson(options.body),
        signal: options.signal,
        credentials: "omit",
      });
    } catch (err) {
      if ((err as Error).name === "AbortError") throw err;
      throw new WidgetApiError("network", 0, (err as Error).message);
    }
    this.bookmark = res.headers.get("X-D1-Bookmark") || this.bookmark;
    // a price calculation (POST /packages/prices) changes nothing
    if (method !== "GET" && path !== "/packages/prices") this.wrote = true;
    const text = await res.text().catch(() => "");
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) throw classify(res.status, body, res.headers.get("Retry-After"));
    return body as T;
  }

  bootstrap(q: { product?: string; start_date?: string; duration?: number; language?: string; currency?: string }) {
    return this.request<Bootstrap>("GET", "/bootstrap", { query: q });
  }
  calendar(q: { product: number; from: string; to?: string; currency: string; duration?: number; language: string }) {
    return this.request<CalendarWindow>("GET", "/calendar", { query: q });
  }
  packageItems(id: number, q: { start_date: string; duration: number; currency: string; language: string }) {
    return this.request<PackageRoot>("GET", `/packages/${id}`, { query: q });
  }
  accommodations(id: number, q: { start_date: string; duration: number; males: number; females: number; couples: number; currency: string; language: string }) {
    return this.request<AccommodationOption[]>("GET", `/packages/${id}/accommodations`, { query: q });
  }
  /** The price breakdown of a selection (no holds): what the guest would pay. */
  packagePrices(body: { currency: string; guests: (Omit<AddToCartBody["guests"][number], "first_name" | "last_name"> & { unique_id: string })[] }, signal?: AbortSignal) {
    return this.request<Record<string, { price: number; package_item_id: number | null; role: string }[]>>("POST", "/packages/prices", { body, signal });
  }
  addToCart(body: AddToCartBody, idempotencyKey: string) {
    return this.request<Cart>("POST", "/bookings/add", { body, idempotencyKey });
  }
  cart(id: string) {
    return this.request<Cart>("GET", `/carts/${encodeURIComponent(id)}`);
  }
  extend(id: string) {
    return this.request<{ cart_id: string; expiry_date: string }>("PUT", `/carts/${encodeURIComponent(id)}/extend`);
  }
  abandon(id: string) {
    return this.request<{ success: boolean }>("DELETE", `/carts/${encodeURIComponent(id)}`);
  }
  /** `humanToken`: the Turnstile token, when the business asks for the human check. */
  checkout(id: string, body: CheckoutBody, idempotencyKey: string, humanToken = "") {
    // 202 awaiting_payment when the business confirms a booking only once paid (the guest pays first)
    return this.request<Booking | AwaitingPayment>("POST", `/carts/${encodeURIComponent(id)}/checkout`, { body, idempotencyKey, headers: humanToken ? { "X-Turnstile-Token": humanToken } : {} });
  }
}
