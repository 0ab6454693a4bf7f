import { z } from "@hono/zod-openapi";
import { CurrencyCode, DateOut, EmailAddress, IsoDate, ItemDate, LanguageCode, MAX_ID, NameText } from "./common";

const Name = NameText(255).min(1, "is required");
const Email = EmailAddress();

/**
 * Answers to the business's own questions (GET /settings: settings.custom_fields), keyed by each
 * field's key. Optional: left out, nothing is answered (a required field is then a 422).
 */
export const CustomAnswersInput = (who: "guest" | "customer") =>
  z
    .record(
      z.string().max(40),
      z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]),
    )
    .refine((o) => Object.keys(o).length <= 100, "at most 100 answers")
    .optional()
    .openapi({
      description:
        `Answers to the business's questions that apply to ${who === "guest" ? "guests (applies_to guest or both)" : "the customer (applies_to customer or both)"}, keyed by field key: ` +
        "text a string, number a number, boolean true or false, date 'YYYY-MM-DD', select one of the field's options as listed in GET /settings (`options`, not their translated `option_titles`); null or \"\" is no answer. " +
        "A required field left unanswered, an answer of the wrong type, an option not listed or a key that is not such a question: 422 naming the answer " +
        `(\`${who === "guest" ? "guests.0" : "customer"}.custom_fields.<key>\`), and nothing changes.`,
      example: { certification: "Open Water" },
    });

export const CartItemInput = z.object({
  package_item_id: z.number().int().min(1).openapi({ description: "The package item's id (not a product id).", example: 1002 }),
  dates: z.array(ItemDate).min(1).max(400),
});

export const CartPackageInput = z
  .object({
    id: z.number().int().min(1).openapi({
      description:
        "A package's id, or the id of a product the business lists on its own (an activity, a course, a rental, a room), sold as its own one-item package: " +
        "start_date to end_date − 1 are the days it covers (a room's nights; one day for a product sold by the hour); a product on timeslots needs its time, " +
        "sent as its one item (GET /packages/{id} gives its package_item_id) with a 'YYYY-MM-DD HH:mm:ss' date. An activity's guests of one request with the same start and time are one party, within its pax.min and pax.max.",
      example: 101,
    }),
    start_date: IsoDate,
    end_date: IsoDate,
    accommodation_id: z.number().int().min(1).optional().openapi({ description: "Required when the package has accommodation (a room sold on its own is its own: may be left out).", example: 201 }),
    srs: z.boolean().optional().openapi({ description: "Book the shared room privately (single room supplement)." }),
    items: z
      .array(CartItemInput)
      .max(100)
      .optional()
      .openapi({
        description:
          "Options, alternatives and upgrades. Default items are added automatically; default items sent here are ignored, except that a default item on timeslots " +
          "sent with 'YYYY-MM-DD HH:mm:ss' dates is taken at those times (one per day; other days at its default time).",
      }),
  })
  .refine((p) => p.end_date >= p.start_date, { message: "must not be before start_date", path: ["end_date"] });

export const CartGuestInput = z.object({
  first_name: Name,
  last_name: Name,
  email: Email.optional().openapi({ description: "Unique per guest within the cart (compared case-insensitively)." }),
  gender: z.enum(["m", "f"]).optional().openapi({ description: "Required when the guest's package is booked with a room (its gender rules depend on it); may be left out for a package or product without one." }),
  language_code: LanguageCode.optional(),
  birth_date: IsoDate.optional().openapi({ description: "Required when the business's guest_fields.birthday.required is true." }),
  diet_id: z.number().int().min(1).max(MAX_ID).optional().openapi({ description: "One of the diets in GET /settings." }),
  level_id: z.number().int().min(1).max(MAX_ID).optional().openapi({ description: "One of the levels in GET /settings." }),
  custom_fields: CustomAnswersInput("guest"),
  package: CartPackageInput,
});
export type CartGuestInput = z.infer<typeof CartGuestInput>;

export const AddToCartBody = z
  .object({
    currency: CurrencyCode.openapi({ description: "Currency of the order; a cart keeps the currency it was opened with." }),
    cart_id: z.uuid("must be a cart_id (UUID) returned by an earlier call").optional(),
    guests: z.array(CartGuestInput).min(1).max(50),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.guests.forEach((g, i) => {
      if (!g.email) return;
      const norm = g.email.trim().toLowerCase();
      if (seen.has(norm)) {
        ctx.addIssue({ code: "custom", path: ["guests", i, "email"], message: `is the same as guests.${seen.get(norm)}.email; each guest needs their own e-mail` });
      } else seen.set(norm, i);
    });
  })
  .openapi("AddToCart");
export type AddToCartBody = z.infer<typeof AddToCartBody>;

export const Customer = z.object({
  first_name: Name,
  last_name: Name,
  email: Email,
  gender: z.enum(["m", "f"]).optional(),
  language_code: LanguageCode.optional(),
  birth_date: IsoDate.optional(),
  phone_countrycode: z
    .union([z.number().int().min(1).max(9999), z.string().regex(/^\d{1,4}$/, "must be digits without a plus sign")])
    .optional()
    .openapi({ description: "Country calling code without plus sign.", example: 351 }),
  phone: z.string().trim().min(1).max(40).regex(/^[\d\s()./-]+$/, "must be a phone number").optional(),
  address_line_1: z.string().trim().max(255).optional(),
  address_line_2: z.string().trim().max(255).optional(),
  city: z.string().trim().max(255).optional(),
  state: z.string().trim().max(255).optional(),
  zipcode: z.string().trim().max(32).optional(),
  country: z.string().trim().max(100).optional().openapi({ description: "Country name in English (a two-letter ISO code is accepted too).", example: "Portugal" }),
  custom_fields: CustomAnswersInput("customer"),
});
export type Customer = z.infer<typeof Customer>;

export const CheckoutBody = z
  .object({
    terms_accepted: z.literal(true, "must be true: the buyer must accept the business's terms (GET /settings)"),
    newsletter_opt_in: z.boolean().optional(),
    customer: Customer,
    return_url: z
      .url()
      .max(2000)
      .regex(/^https?:\/\//, "must be an http(s) URL")
      .optional()
      .openapi({
        description:
          "Where the guest comes back to after paying online (only used when the business takes payment at booking): the page the widget is on. Through the widget its origin must be the page's own (the request's Origin). " +
          "The guest comes back with `bw_payment=success|cancelled` and `bw_cart=<cart_id>` added to its query; the return itself decides nothing. Default: the business's hosted page /book/{business}.",
      }),
  })
  .openapi("Checkout", {
    description: "`terms_accepted` must be true: otherwise 422 with code `terms_not_accepted` and nothing changes.",
  });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

export const CartIdParam = z.object({
  cart_id: z.string().openapi({ param: { name: "cart_id", in: "path" }, example: "3f1c9a52-6a43-4bd1-9a3e-2f9f0a6f4c11" }),
});

// --- responses -----------------------------------------------------------------------------

export const CartStatus = z.enum(["open", "checked_out", "abandoned"]);

export const CartItem = z
  .object({
    id: z.number().int().openapi({ description: "Line id within the cart." }),
    package_item_id: z.number().int().nullable().openapi({ description: "The package item's id; for the package itself, its accommodation and srs the package's own ids for them (null on carts opened before they had one)." }),
    product_id: z.number().int(),
    product_type: z.string(),
    title: z.string().openapi({ description: "In the guest's language_code when the catalog has that translation, else in the business's default language." }),
    role: z.enum(["package", "accommodation", "srs", "default", "option", "alternative", "upgrade"]),
    dates: z.array(z.string()),
    qty: z.number().int(),
    price: z.number().openapi({ description: "In the cart's currency, major units." }),
    is_fixed: z.boolean(),
  })
  .openapi("CartItem");
export type CartItem = z.infer<typeof CartItem>;

export const CartGuest = z
  .object({
    id: z.uuid().openapi({ description: "The cart guest's id; after checkout it is also the booking guest's id." }),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().nullable(),
    gender: z.enum(["m", "f"]).nullable().openapi({ description: "null when it was left out (a package or product booked without a room)." }),
    language_code: z.string().nullable(),
    birth_date: DateOut.nullable(),
    custom_fields: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .openapi({ description: "The guest's answers to the business's questions, as sent (unanswered ones left out)." }),
    package: z.object({
      id: z.number().int(),
      title: z.string().openapi({ description: "In the guest's language_code when the catalog has that translation, else in the business's default language." }),
      start_date: DateOut,
      end_date: DateOut,
      accommodation_id: z.number().int().nullable(),
      srs: z.boolean(),
    }),
    items: z.array(CartItem),
    total: z.number().openapi({ description: "Sum of this guest's items, major units." }),
  })
  .openapi("CartGuest");
export type CartGuest = z.infer<typeof CartGuest>;

export const BookingRef = z.object({
  id: z.uuid(),
  reference: z.string().openapi({ description: "reference_year-reference_number, for people.", example: "2026-00042" }),
  reference_number: z.number().int().openapi({ description: "Sequential per business and year." }),
  reference_year: z.string().openapi({ example: "2026" }),
});

/** A payment the guest is asked to make online (Stripe's hosted Checkout): where, how much, until when. */
export const PaymentAsked = z
  .object({
    url: z.string().openapi({ description: "Stripe's hosted payment page: send the guest there (the widget does, in the same tab)." }),
    amount: z.number().openapi({ description: "Major units, in the cart's currency: the server's own amount (the payment policy's due_at_booking), never the page's." }),
    currency: z.string(),
    expires_at: z.string().openapi({ description: "When the payment page expires (UTC)." }),
  })
  .openapi("PaymentAsked");

export const CartPayment = z
  .object({
    status: z
      .enum(["awaiting", "paid", "expired", "canceled", "refunded"])
      .openapi({ description: "awaiting: the guest is paying (the cart takes no change); paid: booked; expired: the payment page expired or the payment failed (the cart abandoned); canceled: DELETE canceled it; refunded: paid, but the places were gone, so refunded in full and nothing booked." }),
    url: z.string().nullable().openapi({ description: "The payment page, while awaiting; null after." }),
    amount: z.number(),
    currency: z.string(),
    expires_at: z.string(),
  })
  .openapi("CartPayment", { description: "A cart checked out with the business's pay_to_confirm: its online payment (issue 31)." });

export const Cart = z
  .object({
    cart_id: z.uuid(),
    status: CartStatus,
    abandon_reason: z
      .enum(["expired", "deleted"])
      .nullable()
      .openapi({ description: "Why an abandoned cart was abandoned: its expiry passed, or DELETE /carts/{cart_id}." }),
    currency: z.string(),
    created_at: z.string(),
    expiry_date: z.string().openapi({ description: "When the holds lapse (UTC). An open cart past it is shown as abandoned (expired)." }),
    seconds_left: z.number().int().openapi({ description: "Seconds until expiry_date at the time of the response; 0 when not open." }),
    extensions_left: z.number().int().openapi({ description: "How many more times PUT /carts/{cart_id}/extend is allowed." }),
    item_count: z.number().int().openapi({ description: "Items in the cart, counted against the business's max_items_per_cart." }),
    guests: z.array(CartGuest),
    total: z.number().openapi({ description: "The whole cart, major units." }),
    booking: BookingRef.nullable().openapi({ description: "The booking created at checkout; null before." }),
    payment: CartPayment.optional().openapi({ description: "Only on a cart whose checkout asked for an online payment first (the business's payment_policy.pay_to_confirm)." }),
  })
  .openapi("Cart", {
    description:
      "A cart: its guests, each with the package chosen and the priced items held for them (default items included), totals in the cart's currency (major units), status and expiry. " +
      "States: open -> checked_out (POST checkout) or abandoned (DELETE, or the expiry passing). A cart past its expiry is abandoned at once: " +
      "add, extend and checkout answer 410 `cart_expired` whether or not the expiry has been swept yet; a checked-out or deleted cart answers 409 `cart_not_open`.",
  });
export type Cart = z.infer<typeof Cart>;

export const ExtendResult = z
  .object({ cart_id: z.uuid(), expiry_date: z.string().openapi({ description: "UTC, 10 minutes after the request (never earlier than before)." }) })
  .openapi("CartExtended");

export const DeleteResult = z.object({ success: z.boolean() }).openapi("CartDeleted");

export const Booking = z
  .object({
    ...BookingRef.shape,
    status: z.enum(["confirmed", "cancelled"]),
    cart_id: z.uuid(),
    currency: z.string(),
    total: z.number().openapi({ description: "Major units, in the booking's currency." }),
    start_date: DateOut,
    end_date: DateOut,
    newsletter_opt_in: z.boolean(),
    created_at: z.string(),
    booker: z.object({ id: z.uuid(), first_name: z.string(), last_name: z.string(), email: z.string() }),
    guests: z.array(CartGuest).openapi({ description: "The booking's guests; each id is the guest's id under the private API." }),
    confirmation_email: z
      .string()
      .nullable()
      .openapi({ description: "The address the booking confirmation e-mail is sent to (the booker's); null when the business sends no e-mail (no sender address in its settings)." }),
    payment: PaymentAsked.optional().openapi({
      description: "Only when the business takes online payment (payment_policy.online_payment, Stripe connected) and something is due at booking: a payment page for the deposit (or the whole), the guest may pay at once. Paid or not, the booking is confirmed.",
    }),
  })
  .openapi("Booking", {
    description: "What checkout booked: the booking with its reference, booker, guests and their items, and the total.",
  });
export type Booking = z.infer<typeof Booking>;

/** Checkout's answer when the business confirms a booking only once paid (payment_policy.pay_to_confirm). */
export const AwaitingPayment = z
  .object({
    status: z.literal("awaiting_payment"),
    cart_id: z.uuid(),
    payment: PaymentAsked,
  })
  .openapi("AwaitingPayment", {
    description:
      "Nothing is booked yet: the guest pays on `payment.url` (Stripe's hosted Checkout). Stripe's signed webhook books the cart with this checkout's request once paid; " +
      "GET /carts/{cart_id} shows it checked out (with its booking) or, when the payment page expired, abandoned.",
  });
export type AwaitingPayment = z.infer<typeof AwaitingPayment>;
