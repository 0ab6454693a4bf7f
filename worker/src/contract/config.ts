import { z } from "@hono/zod-openapi";
import { isThemeProperty, THEME_NAMES, themeValueProblem } from "./widget-theme";
import { EmailAddress } from "./common";
import { paymentPolicySchemas } from "./payment-policy";

/** Fields accepted on write and never answered: settings show only whether each is set (`<field>_set`). */
export const WRITE_ONLY_FIELDS = ["turnstile_secret"] as const;
export const isWriteOnly = (field: string) => (WRITE_ONLY_FIELDS as readonly string[]).includes(field);

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
 * The configuration's zod schemas, built on their first use rather than at the isolate's startup:
 * they are the largest part of what a startup would build (docs/benchmarks.md, "What loads
 * lazily"), and the first request that reads a business's settings builds them, once.
 */
function buildSchemas() {
  const { PaymentPolicy } = paymentPolicySchemas();
  const FieldRule = z.object({ request: z.boolean(), required: z.boolean() });
  const LanguageCode = z.string().regex(/^[a-z]{2}$/, "must be a two-letter lower-case language code");

  /**
   * A custom field the business asks of its guests or customers: its values live in the persons'
   * `custom_fields` under `key` (the private API's persons, guests and bookers).
   */
  const CustomField = z
    .object({
      key: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "must be 1 to 40 lower-case letters, digits or _, starting with a letter"),
      title: z.string().min(1).max(200),
      type: z.enum(["text", "number", "boolean", "date", "select"]),
      options: z.array(z.string().min(1).max(200)).max(100).default([]).openapi({ description: "The choices of a select field." }),
      required: z.boolean().default(false),
      applies_to: z.enum(["guest", "customer", "both"]).default("guest"),
      translations: z
        .record(
          LanguageCode,
          z.object({
            title: z.string().min(1).max(200).optional(),
            options: z.array(z.string().min(1).max(200)).max(100).optional().openapi({ description: "The options' titles in that language, in the same order as options (as many)." }),
          }),
        )
        .default({})
        .openapi({ description: 'The title and options in the business\'s other languages, e.g. {"de": {"title": "Tauchschein", "options": ["Keiner", "Open Water"]}}. A select\'s answer is always its option as stored (options), whatever the language shown.' }),
    });

  /**
   * The widget's theme: `--bw-*` custom property names (contract/widget-theme.ts) to values, each
   * of its property's syntax only (a colour, a length, font family names): no CSS can be smuggled in.
   */
  const WidgetThemeSetting = z
    .record(z.string(), z.string())
    .superRefine((theme, ctx) => {
      for (const [name, value] of Object.entries(theme)) {
        if (!isThemeProperty(name)) {
          ctx.addIssue({ code: "custom", path: [name], message: `is not a theme property; these are: ${THEME_NAMES.join(", ")}` });
          continue;
        }
        const problem = themeValueProblem(name, value);
        if (problem) ctx.addIssue({ code: "custom", path: [name], message: problem });
      }
    })
    .openapi({ description: "The widget's `--bw-*` custom properties (docs/widget.md), e.g. {\"--bw-accent\": \"#b41e5a\", \"--bw-radius\": \"0\"}." });

  const TurnstileKey = z.string().trim().regex(/^[A-Za-z0-9_-]{1,200}$/, "must be a Turnstile key as Cloudflare shows it (letters, digits, _ and -)");

  /**
   * A business's configuration, stored as JSON on the business row. Every field has a default so
   * that `business create` onboards a working, empty business and old rows gain new settings.
   * The settings API (PATCH /private/settings) exposes every field; docs/administration.md
   * describes each one.
   */
  const BusinessConfig = z.object({
    default_language: LanguageCode.default("en"),
    languages: z.array(LanguageCode).min(1).max(30).default(["en"]),
    guest_fields: z
      .object({ birthday: FieldRule, minimum_age: z.number().int().min(0).max(120) })
      .default({ birthday: { request: true, required: false }, minimum_age: 0 }),
    customer_fields: z
      .object({ address: FieldRule, phone: FieldRule, minimum_age: z.number().int().min(0).max(120) })
      .default({
        address: { request: true, required: false },
        phone: { request: true, required: false },
        minimum_age: 18,
      }),
    /**
     * The business's IANA time zone ("Europe/Lisbon"). "Today" is its date there: nothing before
     * it is available or bookable. Default "UTC" (the date every business had before this setting).
     */
    time_zone: z
      .string()
      .refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Lisbon")
      .openapi({ example: "Europe/Lisbon", description: "An IANA time zone name (tz database: Europe/Lisbon, America/New_York, UTC); anything else is a 422. The business's date there is its today." })
      .default("UTC"),
    /** The booking terms in the default language. */
    terms: z.string().max(50_000).default("Bookings are confirmed once checked out. Cancellation terms apply as agreed with the business."),
    /** The terms in the business's other languages, by language code. */
    terms_translations: z.record(LanguageCode, z.string().max(50_000)).default({}),
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
    /**
     * Bookings one widget visitor may confirm in an hour and in a day (a visitor is a browser's
     * address: docs/security.md). Low by default so that one browser cannot book a date out with
     * bookings nobody will honour, nor make the business's address e-mail strangers in a loop; a
     * family books once. API keys are not visitors and keep their own rate limit.
     */
    max_bookings_per_visitor_per_hour: z.number().int().min(1).max(1000).default(5),
    max_bookings_per_visitor_per_day: z.number().int().min(1).max(10_000).default(10),
    /**
     * E-mails to a booker's address (confirmations, cancellations) the business sends in a day; past
     * it the e-mail fails with its reason in the Outbox, unsent. Anyone may type anyone's address at
     * checkout: this keeps the business's address from being used to flood a stranger's inbox.
     */
    max_emails_per_recipient_per_day: z.number().int().min(1).max(1000).default(5),
    /** Origins allowed to call the widget proxy, e.g. "https://surfcamp.example". */
    widget_origins: z.array(z.string().max(300)).max(100).default([]),
    /** Allow any loopback origin (http://localhost:*, http://127.0.0.1:*) for local development. */
    widget_allow_loopback: z.boolean().default(false),
    /**
     * The widget's look: values for its `--bw-*` custom properties, applied by the widget itself
     * (its bootstrap answer carries them). The host page's own CSS on the element still wins.
     */
    widget_theme: WidgetThemeSetting.default({}),
    /** Where the business's own e-mails go (new bookings, cancellations). */
    notification_emails: z.array(EmailAddress()).max(20).default([]),
    /** Custom fields asked of guests and customers. */
    custom_fields: z.array(CustomField).max(100).default([]),
    /**
     * The business's own sender of every e-mail (guests' confirmations and cancellations, the
     * notifications above), e.g. "bookings@surfcamp.example": an address on one of the sending
     * domains the operator onboarded (EMAIL_SENDING_DOMAINS; 422 otherwise). null (the default): the
     * e-mails go from the platform's sender (EMAIL_DEFAULT_FROM) under the business's name; with no
     * platform sender either, none is sent and the widget promises none (docs/email.md).
     */
    email_from: EmailAddress().nullable().default(null),
    /** The business's contact address, shown in its e-mails and their Reply-To; null: replies go to email_from, or from the platform's sender to the first notification address. */
    contact_email: EmailAddress().nullable().default(null),
    /** The business's contact phone, shown in its e-mails, e.g. "+351 912 345 678"; null: none shown. */
    contact_phone: z.string().trim().min(1).max(40).nullable().default(null),
    /** The business's postal address, shown with its legal name (company_name) in its e-mails; null: none shown. */
    company_address: z.string().trim().min(1).max(300).nullable().default(null),
    /** The colour of the e-mails' header band and headings, as #RRGGBB; the default is the widget's own accent. */
    brand_color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #RRGGBB").default("#0a5d7a"),
    /**
     * The business's Cloudflare Turnstile site key (public: the widget renders the challenge with
     * it). With turnstile_secret set too, a checkout through the widget must carry a Turnstile token
     * that Cloudflare confirms (docs/security.md); null (the default): no human check.
     */
    turnstile_site_key: TurnstileKey.nullable().default(null),
    /**
     * The Turnstile secret key the service verifies tokens with. Write-only: accepted on write,
     * never answered (settings answer `turnstile_secret_set`), never in the catalog file.
     */
    turnstile_secret: TurnstileKey.nullable().default(null),
    /**
     * How guests pay (issue 31): online payment, the deposit, the balance due date, whether an online
     * booking waits for its payment, the cancellation terms (contract/payment-policy.ts; a product
     * may set its own deposit and balance due days). Default: no online payment, no deposit.
     */
    payment_policy: PaymentPolicy.default(PaymentPolicy.parse({})),
  });
  return { CustomField, WidgetThemeSetting, BusinessConfig };
}

type ConfigSchemas = ReturnType<typeof buildSchemas>;
let built: ConfigSchemas | undefined;
/** The schemas (CustomField, WidgetThemeSetting, BusinessConfig), the same objects every time. */
export const configSchemas = (): ConfigSchemas => (built ??= buildSchemas());
export type CustomField = z.infer<ConfigSchemas["CustomField"]>;
export type BusinessConfig = z.infer<ConfigSchemas["BusinessConfig"]>;

let fields: (keyof BusinessConfig)[] | undefined;
/** The config's fields, in order. */
export const configFields = (): (keyof BusinessConfig)[] => (fields ??= Object.keys(configSchemas().BusinessConfig.shape) as (keyof BusinessConfig)[]);

/** A stored config field that does not parse: which, why, and what was stored. */
export interface ConfigProblem {
  field: string;
  message: string;
  stored: unknown;
}

export interface ParsedConfig {
  config: BusinessConfig;
  /** Fields whose stored value is invalid; each was replaced by its default in `config` only. */
  problems: ConfigProblem[];
}

/**
 * A stored configuration, field by field: each field that parses is kept, each that does not is
 * reported and takes its default (so one bad field never resets the others). Text that is not a
 * JSON object is one problem (field "*"), and every field takes its default.
 */
export function readConfig(json: string | null | undefined): ParsedConfig {
  let raw: unknown = {};
  const problems: ConfigProblem[] = [];
  try {
    raw = json ? JSON.parse(json) : {};
  } catch {
    problems.push({ field: "*", message: "the stored configuration is not valid JSON", stored: String(json).slice(0, 200) });
    raw = {};
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    if (!problems.length) problems.push({ field: "*", message: "the stored configuration is not a JSON object", stored: raw });
    raw = {};
  }
  const stored = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of configFields()) {
    const { value, issue } = fieldOf(field, stored[field]);
    out[field] = value;
    if (issue) {
      const at = issue.path.length ? `${field}.${issue.path.map(String).join(".")}` : field;
      problems.push({ field: at, message: issue.message, stored: isWriteOnly(field) ? "[write-only]" : stored[field] });
    }
  }
  return { config: out as BusinessConfig, problems };
}

/** A field's stored value when its schema takes it, else the field's default with the first issue. */
function fieldOf<K extends keyof BusinessConfig>(field: K, stored: unknown): { value: BusinessConfig[K]; issue?: z.core.$ZodIssue } {
  const schema = configSchemas().BusinessConfig.shape[field];
  const parsed = schema.safeParse(stored);
  return parsed.success ? { value: parsed.data as BusinessConfig[K] } : { value: schema.parse(undefined) as BusinessConfig[K], issue: parsed.error.issues[0] };
}

/** One field of the configuration as readConfig reads it (a missing or null value is its default). */
export const readConfigField = <K extends keyof BusinessConfig>(field: K, stored: unknown): BusinessConfig[K] => fieldOf(field, stored ?? undefined).value;

/** The configuration (see readConfig; problems are reported by the callers that know the business). */
export function parseConfig(json: string | null | undefined): BusinessConfig {
  return readConfig(json).config;
}
