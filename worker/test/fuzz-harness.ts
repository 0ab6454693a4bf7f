/**
 * What the fuzz suites share: the document, the keys, the objects that requests can point at,
 * and the oracle that judges a response (no 5xx; errors are problem+json of the Problem shape;
 * a 2xx body matches the response schema the document declares for it).
 */
import { env } from "cloudflare:test";
import { BASE, createKey, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { validate, type OpenApiDoc } from "./fuzz-schema";
import { addDaysIso, demoHints, upcomingSaturdays, urlFor, type FuzzRequest, type Hints, type Operation } from "./fuzz-requests";

export async function loadDocument(): Promise<OpenApiDoc> {
  const res = await fetchWorker(`${BASE}/openapi.json`);
  if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

const testEnv = env as unknown as Record<string, string | undefined>;
/** Runs per property: small in `npm test`, more with FUZZ_RUNS (reaches workerd via vitest.config.ts). */
export const FUZZ_RUNS = Math.max(1, Number(testEnv.FUZZ_RUNS) || 4);
/** A fixed seed keeps `npm test` reproducible; FUZZ_SEED explores elsewhere. */
export const FUZZ_SEED = Number(testEnv.FUZZ_SEED) || 20261121;

/** The loopback origin the demo business accepts on the widget proxy (widget_allow_loopback). */
export const WIDGET_ORIGIN = "http://localhost:8850";

export interface Fixture {
  publicKey: string;
  privateKey: string;
  hints: Hints;
  /** Ids of objects the demo business owns, by kind (for the isolation matrix). */
  owned: Record<string, string>;
}

/**
 * Keys, generous limits (the fuzzers send hundreds of requests a minute from one key), and real
 * objects to point at: a cart, a person, a booking with its guest and booker, a webhook. Each is
 * made through the API when its route exists, else written straight to D1 with the base schema.
 */
export async function prepareFixture(doc: OpenApiDoc): Promise<Fixture> {
  await env.DB.prepare(
    `UPDATE businesses SET config = json_set(config, '$.rate_limit_per_minute', 100000, '$.max_open_carts_per_client', 1000,
       '$.max_extensions_per_cart', 100, '$.max_guests_held_per_visitor', 1000) WHERE id = ?`,
  ).bind(DEMO_BUSINESS_ID).run();
  const publicKey = await createKey("public");
  const privateKey = await createKey("private");
  const has = (method: string, path: string) => !!doc.paths?.[path]?.[method];
  const now = new Date().toISOString();
  const owned: Record<string, string> = {};
  const sat = upcomingSaturdays(3)[2];

  if (has("post", "/api/pub/v2/bookings/add")) {
    const res = await fetchWorker(`${BASE}/api/pub/v2/bookings/add`, {
      method: "POST",
      headers: { Authorization: `Bearer ${publicKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        currency: "EUR",
        guests: [{ first_name: "Fuzz", last_name: "Fixture", gender: "f", birth_date: "1990-01-01", package: { id: 101, start_date: sat, end_date: addDaysIso(sat, 7), accommodation_id: 202 } }],
      }),
    });
    const body = (await res.json().catch(() => ({}))) as any;
    if (body?.cart_id) owned.cart = body.cart_id;
  }
  if (!owned.cart) {
    owned.cart = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO carts (id, business_id, currency, expires_at, created_at, updated_at) VALUES (?, ?, 'EUR', ?, ?, ?)")
      .bind(owned.cart, DEMO_BUSINESS_ID, new Date(Date.now() + 3600_000).toISOString(), now, now).run();
  }

  owned.person = crypto.randomUUID();
  owned.booking = crypto.randomUUID();
  owned.guest = crypto.randomUUID();
  owned.booker = crypto.randomUUID();
  const email = `fixture.${owned.person.slice(0, 8)}@example.com`;
  const snapshot = JSON.stringify({ first_name: "Fixture", last_name: "Person", email });
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO persons (id, business_id, email, email_norm, first_name, last_name, gender, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'Fixture', 'Person', 'female', ?, ?)`,
    ).bind(owned.person, DEMO_BUSINESS_ID, email, email, now, now),
    env.DB.prepare(
      `INSERT INTO bookings (id, business_id, reference_number, reference_year, currency, start_date, end_date, created_at, updated_at)
       VALUES (?, ?, 990001, '2026', 'EUR', ?, ?, ?, ?)`,
    ).bind(owned.booking, DEMO_BUSINESS_ID, sat, addDaysIso(sat, 7), now, now),
    env.DB.prepare(
      "INSERT INTO guests (id, business_id, booking_id, person_id, person_snapshot, arrival_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(owned.guest, DEMO_BUSINESS_ID, owned.booking, owned.person, snapshot, sat, now, now),
    env.DB.prepare(
      "INSERT INTO bookers (id, business_id, booking_id, person_id, person_snapshot, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).bind(owned.booker, DEMO_BUSINESS_ID, owned.booking, owned.person, snapshot, now, now),
  ]);

  if (has("post", "/private/webhooks")) {
    const res = await fetchWorker(`${BASE}/private/webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${privateKey}`, "Content-Type": "application/json" },
      // An event the fuzzers rarely cause, so the delivery object seldom knocks on a closed port.
      body: JSON.stringify({ url: "http://127.0.0.1:8859/fuzz-hook", events: ["BookingCancelled"] }),
    });
    const body = (await res.json().catch(() => ({}))) as any;
    const id = body?.id ?? body?.data?.id;
    if (typeof id === "string") owned.webhook = id;
  }
  owned.webhook ??= crypto.randomUUID();

  const hints = demoHints({
    cart_id: [owned.cart],
    person_id: [owned.person],
    booking_id: [owned.booking],
    guest_id: [owned.guest],
    webhook_id: [owned.webhook],
    "private:id": [owned.webhook, owned.person],
    // The administration's routes, on the demo business's own catalog.
    "/private/catalog/products/{id}#id": [101, 302, 201],
    "/private/catalog/products/{id}/inventory#id": [101, 302],
    "/private/catalog/locations/{id}#id": [1],
    "/private/catalog/categories/{id}#id": [1, 11],
    "/private/catalog/accommodation-types/{id}#id": [1],
    "/private/catalog/diets/{id}#id": [1],
    "/private/catalog/levels/{id}#id": [1],
    "/private/catalog/seasons/{id}#id": [1, 3],
    location_id: [1],
    season_id: [1, 2, 3, null],
    accommodation_ids: [201, 205],
    from: upcomingSaturdays(3),
  });
  return { publicKey, privateKey, hints, owned };
}

export interface Sent {
  url: string;
  status: number;
  contentType: string;
  text: string;
}

/** Send a generated request through the operation's door (the right key or the widget origin). */
export async function send(op: Operation, req: FuzzRequest, fx: Fixture, auth?: Record<string, string>): Promise<Sent> {
  const url = urlFor(op, req);
  const headers: Record<string, string> = { ...(auth ?? defaultAuth(op, fx)), ...req.headers };
  // fetch() cannot send a GET body; a body on a GET/DELETE route means nothing to it anyway.
  const body = op.method === "GET" || op.method === "HEAD" ? undefined : req.body;
  if (req.contentType !== undefined && body !== undefined) headers["Content-Type"] = req.contentType;
  const res = await fetchWorker(`${BASE}${url}`, { method: op.method, headers, body });
  return { url, status: res.status, contentType: res.headers.get("Content-Type") ?? "", text: await res.text() };
}

export function defaultAuth(op: Operation, fx: Fixture): Record<string, string> {
  if (op.door === "public") return { Authorization: `Bearer ${fx.publicKey}` };
  if (op.door === "private") return { Authorization: `Bearer ${fx.privateKey}` };
  if (op.door === "widget") return { Origin: WIDGET_ORIGIN };
  return {};
}

/** Statuses answered that the operation's document does not list (each also fails its property). */
export const undocumented = new Map<string, Set<number>>();

/** What is wrong with a response, as a list of sentences (empty: acceptable). */
export function judge(doc: OpenApiDoc, op: Operation, sent: Sent): string[] {
  const problems: string[] = [];
  const { status } = sent;
  if (status >= 500) problems.push(`answered ${status}`);
  const declared = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  // The widget door adds its own answers (unknown business 404, origin 403) to every operation.
  const doorStatus = op.door === "widget" && (status === 403 || status === 404);
  if (!declared && status !== 429 && !doorStatus) {
    const set = undocumented.get(op.id) ?? new Set<number>();
    set.add(status);
    undocumented.set(op.id, set);
    // An integrator codes against the listed answers: one the document does not list is a defect.
    problems.push(`answered ${status}, which the document does not list for ${op.id}`);
  }
  if (status >= 400) {
    if (!/^application\/problem\+json/i.test(sent.contentType)) problems.push(`error ${status} with Content-Type "${sent.contentType}"`);
    let body: any;
    try {
      body = JSON.parse(sent.text);
    } catch {
      problems.push(`error ${status} body is not JSON: ${sent.text.slice(0, 120)}`);
      return problems;
    }
    const shape = doc.components?.schemas?.Problem;
    const errs = shape ? validate(doc, shape, body) : [];
    for (const k of ["type", "title", "status", "detail", "code"]) if (!(k in (body ?? {}))) errs.push(`$: missing "${k}"`);
    if (body?.status !== status) errs.push(`$.status ${body?.status} differs from the HTTP status ${status}`);
    if (errs.length) problems.push(`error ${status} is not a Problem: ${errs.slice(0, 4).join("; ")}`);
    return problems;
  }
  if (status >= 200 && status < 300) {
    const media = declared?.content ? Object.keys(declared.content) : [];
    if (status === 204 || !media.length) {
      if (status === 204 && sent.text.length) problems.push("204 with a body");
      return problems;
    }
    const jsonMedia = media.find((m) => /json/.test(m));
    if (!jsonMedia) return problems;
    if (!/json/i.test(sent.contentType)) problems.push(`2xx with Content-Type "${sent.contentType}" where the document says ${jsonMedia}`);
    let body: unknown;
    try {
      body = JSON.parse(sent.text);
    } catch {
      problems.push(`2xx body is not JSON: ${sent.text.slice(0, 120)}`);
      return problems;
    }
    const schema = declared.content[jsonMedia].schema;
    const errs = schema ? validate(doc, schema, body) : [];
    if (errs.length) problems.push(`${status} body does not match its schema: ${errs.slice(0, 5).join("; ")}`);
  }
  return problems;
}

export function describeFailure(op: Operation, req: FuzzRequest, sent: Sent, problems: string[]): string {
  const body = req.body === undefined ? "" : ` body=${req.body.length > 300 ? `${req.body.slice(0, 300)}…(${req.body.length} chars)` : req.body}`;
  return `${op.method} ${sent.url.length > 300 ? `${sent.url.slice(0, 300)}…` : sent.url}${body}${req.mutation ? ` [${req.mutation}]` : ""}\n  → ${problems.join("\n  → ")}\n  response: ${sent.text.slice(0, 300)}`;
}
