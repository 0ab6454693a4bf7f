/**
 * Requests built to be valid: for every operation of the document and of the widget proxy, one
 * that its owner's key (or the allowed widget origin) gets a 2xx for. The authorization matrix
 * sends them to prove a refusal is the key's or the origin's doing, not the request's; the fuzzer
 * sends them to prove that valid requests succeed. Where a request spends its object (a deletion,
 * a checkout, a cancellation), each call makes an object of its own, so no test depends on
 * another's leftovers, and each stay takes its turn over rooms and weeks no other fixture uses.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import Stripe from "stripe";
import { BASE, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { WIDGET_ORIGIN, type Fixture } from "./fuzz-harness";
import { deref, type OpenApiDoc } from "./fuzz-schema";
import { addDaysIso, arbitraryFor, encodeQuery, upcomingSaturdays, type FuzzRequest, type Operation } from "./fuzz-requests";

export type Door = "keyed" | "widget";

export interface ValidRequests {
  /** Required fields only, from the hints: what the key or origin alone decides on (no object made). */
  ownerRequest(op: Operation): FuzzRequest;
  /** A request its owner gets a 2xx for, through the given door (objects made as needed). */
  ownerRequestFor(op: Operation, door: Door): Promise<FuzzRequest>;
  /** The same for an operation of the widget proxy (its own reads included). */
  widgetRequest(op: Operation): Promise<FuzzRequest>;
  /** The widget's own reads this module builds a request for, by operation id. */
  widgetOwnReads: string[];
  /** Room again on the stays' weeks (after other requests blocked or shrank them). */
  makeRoom(): Promise<void>;
}

export async function validRequests(doc: OpenApiDoc, fx: Fixture): Promise<ValidRequests> {
  /** One request that the route would accept from its owner: demo objects in the path, valid query and body. */
  function ownerRequest(op: Operation): FuzzRequest {
    const path: Record<string, string> = {};
    for (const p of op.params.filter((p) => p.in === "path")) {
      const hinted = fx.hints(op.path, p.name);
      path[p.name] = String(hinted?.[0] ?? fc.sample(arbitraryFor(doc, p.schema, fx.hints, op.path, p.name), { seed: 7, numRuns: 1 })[0]);
    }
    const query: Record<string, unknown> = {};
    for (const p of op.params.filter((p) => p.in === "query" && p.required)) {
      query[p.name] = fx.hints(op.path, p.name)?.[0] ?? fc.sample(arbitraryFor(doc, p.schema, fx.hints, op.path, p.name), { seed: 7, numRuns: 1 })[0];
    }
    const body = op.body ? minimal(op.body.schema, op.path) : undefined;
    return { path, query: encodeQuery(query), body: body === undefined ? undefined : JSON.stringify(body), contentType: body === undefined ? undefined : "application/json" };
  }

  /** The smallest value the schema allows: required fields only, so the key, not the body, decides. */
  function minimal(schema: any, opPath: string, name = ""): unknown {
    const s = deref(doc, schema) as any;
    if (s && typeof s === "object" && (s.type === "object" || s.properties) && !s.anyOf && !s.oneOf) {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = minimal(s.properties?.[k] ?? {}, opPath, k);
      return out;
    }
    if (s && s.type === "array") return Array.from({ length: s.minItems ?? 0 }, () => minimal(s.items ?? {}, opPath, name));
    return fx.hints(opPath, name)?.[0] ?? fc.sample(arbitraryFor(doc, s, fx.hints, opPath, name), { seed: 7, numRuns: 1 })[0];
  }


  type Door = "keyed" | "widget";
  const json = (body: unknown, path: Record<string, string> = {}, query: [string, string][] = []): FuzzRequest => ({
    path, query, body: JSON.stringify(body), contentType: "application/json",
  });

  /** POST (or `method`) through the door the matrix is testing (a cart is its client's: the key or the widget visitor). */
  async function post(door: Door, path: string, body: unknown, auth?: Record<string, string>, method = "POST"): Promise<any> {
    const url = door === "widget" ? `/widget/v1/demo${path.slice("/api/pub/v2".length)}` : path;
    const headers = auth ?? (door === "widget" ? { Origin: WIDGET_ORIGIN } : { Authorization: `Bearer ${path.startsWith("/private") ? fx.privateKey : fx.publicKey}` });
    const res = await fetchWorker(`${BASE}${url}`, { method, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const out = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`setup: ${method} ${url} answered ${res.status}: ${JSON.stringify(out).slice(0, 300)}`);
    return out?.data ?? out;
  }
  let unique = 0;
  const sat = () => upcomingSaturdays(4)[3];
  /**
   * A stay for one guest: the demo's rooms (201 takes men only) over ten weeks no other fixture
   * uses, in turn; on those weeks the package and the rooms have room for any number of runs
   * (FUZZ_RUNS=200 too), set as the owner sets it, so requests built to be valid never sell out.
   */
  const ROOMS = [202, 203, 204, 205];
  const WEEKS = upcomingSaturdays(14).slice(4);
  // Again before each property of the fuzzer: its own requests may block or shrink those dates.
  async function makeRoom() {
    for (const id of [101, 301, ...ROOMS]) { // the package, its surf lessons, its rooms
      await post("keyed", `/private/catalog/products/${id}/inventory`, { from: WEEKS[0], to: addDaysIso(WEEKS[WEEKS.length - 1], 7), capacity: 1_000_000, blocked: false }, undefined, "PATCH");
    }
  }
  await makeRoom();
  const stay = () => {
    const n = ++unique;
    const start = WEEKS[n % WEEKS.length];
    return { id: 101, start_date: start, end_date: addDaysIso(start, 7), accommodation_id: ROOMS[Math.floor(n / WEEKS.length) % ROOMS.length] };
  };
  const cartBody = () => ({
    currency: "EUR",
    guests: [{ first_name: "Matrix", last_name: `Guest${++unique}`, gender: "f", birth_date: "1990-01-01", package: stay() }],
  });
  const newCart = async (door: Door) => (await post(door, "/api/pub/v2/bookings/add", cartBody())).cart_id as string;
  const checkoutBody = () => ({ terms_accepted: true, customer: { first_name: "Matrix", last_name: "Buyer", email: `matrix.buyer${++unique}@example.com`, phone: "912345678", phone_countrycode: 351, country: "Portugal" } });
  /** A booking of its own (cart and checkout through the public API), with its guest and e-mails. */
  async function newBooking() {
    const cart = await newCart("keyed");
    const booking = await post("keyed", `/api/pub/v2/carts/${cart}/checkout`, checkoutBody());
    const email = await env.DB.prepare("SELECT id FROM emails WHERE booking_id = ? ORDER BY id LIMIT 1").bind(booking.id).first<{ id: string }>();
    // As if its delivery were done (only a sent or failed e-mail can be resent), without waiting for it.
    await env.DB.prepare("UPDATE emails SET status = 'sent', next_attempt_at = NULL WHERE id = ?").bind(email!.id).run();
    return { id: booking.id as string, guest: booking.guests[0].id as string, email: email!.id };
  }
  /** The demo business connected to the Stripe stand-in (each time: the fuzz's own PUTs may have removed a secret). */
  const STRIPE_WHSEC = "whsec_validRequestsSecret0123456789";
  const connectStripe = () => post("keyed", "/private/settings/stripe", { secret_key: "rk_test_validRequests0123456789", webhook_secret: STRIPE_WHSEC }, undefined, "PUT");
  const newWebhook = async (events = ["BookingCancelled"]) => (await post("keyed", "/private/webhooks", { url: "http://127.0.0.1:8859/matrix-hook", events })).id as string;
  const newPerson = async () => (await post("keyed", "/private/persons", { first_name: "Matrix", last_name: "Person", email: `matrix.person${++unique}@example.com` })).id as string;

  /**
   * Requests that their owner's key (or the allowed widget origin) gets a 2xx for, where the
   * document's required fields alone are not enough, or where the request spends its object (a
   * deletion, a checkout, a cancellation: each gets an object of its own, so the order of the tests
   * does not matter). Keyed by the public API's or private API's operation id.
   */
  const OWNER_REQUESTS: Record<string, (door: Door) => Promise<FuzzRequest>> = {
    "GET /api/pub/v2/products/prices": async () => ({ path: {}, query: [["product_ids", "101,201"], ["start_date", sat()], ["duration", "7"], ["pax", "1"]] }),
    "POST /api/pub/v2/packages/prices": async () =>
      json({ currency_id: "EUR", guests: [{ unique_id: "ana", gender: "f", package: stay() }] }),
    "GET /api/pub/v2/packages/{id}/accommodations": async () => ({ path: { id: "101" }, query: [["start_date", sat()], ["duration", "7"], ["males", "0"], ["females", "1"], ["couples", "0"]] }),
    "POST /api/pub/v2/bookings/add": async () => json(cartBody()),
    "GET /api/pub/v2/carts/{cart_id}": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
    "DELETE /api/pub/v2/carts/{cart_id}": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
    "PUT /api/pub/v2/carts/{cart_id}/extend": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
    "POST /api/pub/v2/carts/{cart_id}/checkout": async (door) => json(checkoutBody(), { cart_id: await newCart(door) }),
    "DELETE /private/persons/{person_id}": async () => ({ path: { person_id: await newPerson() }, query: [] }),
    "DELETE /private/bookings/{booking_id}/guests/{guest_id}": async () => {
      const b = await newBooking();
      return { path: { booking_id: b.id, guest_id: b.guest }, query: [] };
    },
    "POST /private/bookings/{booking_id}/cancel": async () => ({ path: { booking_id: (await newBooking()).id }, query: [] }),
    "POST /private/bookings/{booking_id}/payments": async () => json({ amount: 10, currency: "EUR", method: "cash" }, { booking_id: (await newBooking()).id }),
    "POST /private/bookings/{booking_id}/refunds": async () => {
      // a refund needs a payment to refund
      const b = await newBooking();
      await post("keyed", `/private/bookings/${b.id}/payments`, { amount: 10, currency: "EUR", method: "cash" });
      return json({ amount: 5, currency: "EUR" }, { booking_id: b.id });
    },
    "POST /private/bookings/{booking_id}/payment-links": async () => {
      await connectStripe();
      return json({ amount: 10, send_email: false }, { booking_id: (await newBooking()).id });
    },
    "POST /stripe/webhook/{slug}": async () => {
      // An event the endpoint takes and ignores, signed as Stripe signs it.
      await connectStripe();
      const payload = JSON.stringify({ id: `evt_${crypto.randomUUID().replaceAll("-", "")}`, object: "event", type: "customer.created", data: { object: {} }, created: 0, livemode: false, pending_webhooks: 1, request: null, api_version: null });
      const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: STRIPE_WHSEC, cryptoProvider: Stripe.createSubtleCryptoProvider() });
      return { path: { slug: "demo" }, query: [], body: payload, contentType: "application/json", headers: { "Stripe-Signature": signature } };
    },
    "POST /private/webhooks": async () => json({ url: "http://127.0.0.1:8859/matrix-hook", events: ["BookingCancelled"] }),
    "GET /private/webhooks/{webhook_id}": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
    "DELETE /private/webhooks/{webhook_id}": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
    "GET /private/webhooks/{webhook_id}/deliveries": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
    "POST /private/webhooks/{webhook_id}/redeliver": async () => {
      // An event the webhook subscribes to, written after it was made.
      const webhook_id = await newWebhook(["PersonCreated"]);
      const person = await newPerson();
      const event = await env.DB.prepare("SELECT id FROM outbox WHERE business_id = ? AND event = 'PersonCreated' AND json_extract(data, '$.person_id') = ?")
        .bind(DEMO_BUSINESS_ID, person).first<{ id: string }>();
      return json({ event_id: event!.id }, { webhook_id });
    },
    "POST /private/webhooks/{webhook_id}/enable": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
    "PATCH /private/catalog/products/{id}/inventory": async () => json({ from: sat(), to: sat(), capacity: 30 }, { id: "101" }),
    // ProductCreate is a union on type: a product of one type, with that type's fields.
    "POST /private/catalog/products": async () => json({ type: "activity", title: `Matrix activity ${++unique}`, capacity: 8, pax: { min: 1, max: 8 } }),
    "POST /private/catalog/categories": async () => json({ title: `Matrix category ${++unique}`, kind: "backoffice" }),
    // A season's name is its own in the business (a second of the same name is refused).
    "POST /private/catalog/seasons": async () => json({ title: `Matrix season ${++unique}` }),
    "GET /private/emails/{email_id}": async () => ({ path: { email_id: (await newBooking()).email }, query: [] }),
    "POST /private/emails/{email_id}/resend": async () => ({ path: { email_id: (await newBooking()).email }, query: [] }),
  };

  /** The operation of the public or private API a widget operation runs (itself for keyed ones). */
  const keyedId = (op: Operation) => op.id.replace("/widget/v1/{business}", "/api/pub/v2");

  async function ownerRequestFor(op: Operation, door: Door): Promise<FuzzRequest> {
    const build = OWNER_REQUESTS[keyedId(op)];
    const req = build ? await build(door) : ownerRequest(op);
    if (door === "widget") req.path.business = "demo";
    return req;
  }


  const WIDGET_OWN_READS: Record<string, () => FuzzRequest> = {
    "GET /widget/v1/{business}/bootstrap": () => ({ path: {}, query: [["product", "101"], ["start_date", sat()]] }),
    "GET /widget/v1/{business}/calendar": () => ({ path: {}, query: [["product", "101"], ["from", sat()]] }),
  };
  async function widgetRequest(op: Operation): Promise<FuzzRequest> {
    const own = WIDGET_OWN_READS[op.id];
    if (!own) return ownerRequestFor(op, "widget");
    const req = own();
    req.path.business = "demo";
    return req;
  }

  return { ownerRequest, ownerRequestFor, widgetRequest, widgetOwnReads: Object.keys(WIDGET_OWN_READS), makeRoom };
}
