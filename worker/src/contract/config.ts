import { z } from "@hono/zod-openapi";

const FieldRule = z.object({ request: z.boolean(), required: z.boolean() });

/** Whether the runtime knows `zone` as an IANA time zone ("Europe/Lisbon", "UTC"). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A business's configuration, stored as JSON on the business row. Every field has a default so
 * that `business create` onboards a working, empty business and old rows gain new settings.
 */
export const BusinessConfig = z.object({
  default_language: z.string().length(2).default("en"),
  languages: z.array(z.string().length(2)).min(1).default(["en"]),
  guest_fields: z
    .object({ birthday: FieldRule, minimum_age: z.number().int().min(0) })
    .default({ birthday: { request: true, required: false }, minimum_age: 0 }),
  customer_fields: z
    .object({ address: FieldRule, phone: FieldRule, minimum_age: z.number().int().min(0) })
    .default({
      address: { request: true, required: false },
      phone: { request: true, required: false },
      minimum_age: 18,
    }),
  /**
   * The business's IANA time zone ("Europe/Lisbon"). "Today" is its date there: nothing before
   * it is available or bookable. Default "UTC" (the date every business had before this setting).
   */
  time_zone: z.string().refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Lisbon").default("UTC"),
  terms: z.string().default("Bookings are confirmed once checked out. Cancellation terms apply as agreed with the business."),
  /** Lifetime of a new cart, in seconds (the spec leaves it open; 10 minutes like an extension). */
  cart_lifetime_seconds: z.number().int().min(5).max(86_400).default(600),
  /** Requests per minute for each API key, and for each widget client. */
  rate_limit_per_minute: z.number().int().min(1).max(100_000).default(600),
  /** Guests one cart may hold (each a booking of a package with its stay, room and options; not priced lines). */
  max_items_per_cart: z.number().int().min(1).max(500).default(40),
  /** Open carts one widget visitor may have at once. API keys are not limited: one key serves a whole site's shoppers. */
  max_open_carts_per_client: z.number().int().min(1).max(1000).default(5),
  max_extensions_per_cart: z.number().int().min(0).max(100).default(6),
  /**
   * Guests one widget visitor may hold places for at once, over all its open carts (a guest holds
   * one place in a package: a bed, or a room with srs, and its items for the stay). Default 10: a
   * party of 8 fits, a visitor cannot take whole room types. API keys are not limited.
   */
  max_guests_held_per_visitor: z.number().int().min(1).max(1000).default(10),
  /**
   * Longest time a widget visitor's cart holds its units, from its opening: a cart's lifetime and
   * its extensions end there (an extension that would pass it is refused). Default 30 minutes.
   */
  max_hold_seconds_per_visitor: z.number().int().min(60).max(86_400).default(1800),
  /** Origins allowed to call the widget proxy, e.g. "https://surfcamp.example". */
  widget_origins: z.array(z.string()).default([]),
  /** Allow any loopback origin (http://localhost:*, http://127.0.0.1:*) for local development. */
  widget_allow_loopback: z.boolean().default(false),
  /** Where the business's own e-mails go (new bookings, cancellations). */
  notification_emails: z.array(z.email().max(255)).max(20).default([]),
  /**
   * The sender of every e-mail of the business (guests' confirmations and cancellations, the
   * notifications above), e.g. "bookings@surfcamp.example". Its domain must be onboarded to
   * Cloudflare Email Service (docs/email.md). null (the default): the business sends no e-mail,
   * and the widget promises none.
   */
  email_from: z.email().max(255).nullable().default(null),
  /** The business's contact address, shown in its e-mails and their Reply-To; null: replies go to email_from. */
  contact_email: z.email().max(255).nullable().default(null),
  /** The business's contact phone, shown in its e-mails, e.g. "+351 912 345 678"; null: none shown. */
  contact_phone: z.string().trim().min(1).max(40).nullable().default(null),
  /** The colour of the e-mails' header band and headings, as #RRGGBB; the default is the widget's own accent. */
  brand_color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #RRGGBB").default("#0a5d7a"),
});
export type BusinessConfig = z.infer<typeof BusinessConfig>;

export function parseConfig(json: string | null | undefined): BusinessConfig {
  let raw: unknown = {};
  try {
    raw = json ? JSON.parse(json) : {};
  } catch {
    raw = {};
  }
  const parsed = BusinessConfig.safeParse(raw);
  return parsed.success ? parsed.data : BusinessConfig.parse({});
}
