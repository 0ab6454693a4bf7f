/**
 * A loopback stand-in for the parts of Stripe's API the service uses (issue 31), for the worker
 * tests: the Worker's STRIPE_API_BASE points the real `stripe` SDK at it (host/port/protocol), and
 * the SDK talks HTTP to it as to api.stripe.com (form-encoded bodies, Idempotency-Key headers).
 *
 *   POST /v1/checkout/sessions       a session, shaped after Stripe's fixture (stripe-fixtures.ts)
 *   GET  /v1/checkout/sessions/{id}  it again
 *   POST /v1/checkout/sessions/{id}/expire  an open session expired (a complete one: 400)
 *   POST /v1/refunds                 a refund of a PaymentIntent, `succeeded` at once
 *
 * As Stripe does, a request with an Idempotency-Key it has seen is answered with the first answer
 * and makes nothing new. And, for the tests (not Stripe's):
 *
 *   GET  /_standin/requests          what it received: [{method, path, key, form}]
 *   POST /_standin/outage?count=n&match=s  the next n /v1 requests whose body holds `s` (a
 *                                    booking's id, a PaymentIntent) are answered 503 (Stripe down)
 *   POST /_standin/refunds-pending?match=pi  the next refund of that PaymentIntent is answered
 *                                    `pending` (Stripe confirms it later, with refund.updated)
 * (Targeted by `match`: the test files run at once and share the one stand-in.)
 *   POST /_standin/sessions/{id}/pay the session as Stripe has it once the guest paid (complete,
 *                                    paid, with a PaymentIntent): the object of the test's event
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type Stripe from "stripe";
import { CHECKOUT_SESSION, REFUND } from "./stripe-fixtures";

export interface Received {
  method: string;
  path: string;
  key: string | null;
  form: Record<string, string>;
}

const state = {
  received: [] as Received[],
  outages: [] as { match: string; count: number }[],
  refundsPending: new Set<string>(),
  sessions: new Map<string, Stripe.Checkout.Session>(),
  answers: new Map<string, { status: number; body: unknown }>(),
  n: 0,
};

const id = (prefix: string) => `${prefix}_test_${(++state.n).toString(36).padStart(6, "0")}${Math.random().toString(36).slice(2, 10)}`;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
  res.end(JSON.stringify(body));
}

/** The session a create asks for, on Stripe's fixture. */
function newSession(form: Record<string, string>): Stripe.Checkout.Session {
  const sid = id("cs");
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]] = v;
  }
  const amount = Number(form["line_items[0][price_data][unit_amount]"]) * Number(form["line_items[0][quantity]"] ?? 1);
  return {
    ...CHECKOUT_SESSION,
    id: sid,
    created: Math.floor(Date.now() / 1000),
    expires_at: Number(form.expires_at ?? Math.floor(Date.now() / 1000) + 86400),
    mode: "payment",
    ui_mode: (form.ui_mode as Stripe.Checkout.Session.UiMode) ?? "hosted_page",
    status: "open",
    payment_status: "unpaid",
    payment_intent: null,
    amount_subtotal: amount,
    amount_total: amount,
    currency: form["line_items[0][price_data][currency]"] ?? null,
    client_reference_id: form.client_reference_id ?? null,
    customer_email: form.customer_email ?? null,
    metadata,
    success_url: form.success_url ?? null,
    cancel_url: form.cancel_url ?? null,
    url: `https://checkout.stripe.com/c/pay/${sid}`,
  };
}

function newRefund(form: Record<string, string>): Stripe.Refund {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]] = v;
  }
  const paid = [...state.sessions.values()].find((s) => s.payment_intent === form.payment_intent);
  return {
    ...REFUND,
    id: id("re"),
    created: Math.floor(Date.now() / 1000),
    amount: Number(form.amount ?? paid?.amount_total ?? 0),
    currency: paid?.currency ?? REFUND.currency,
    payment_intent: form.payment_intent ?? null,
    metadata,
    status: state.refundsPending.delete(form.payment_intent ?? "") ? "pending" : "succeeded",
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, text: string) {
  const url = new URL(req.url ?? "/", "http://standin");
  const path = url.pathname;
  if (path === "/_standin/requests") return send(res, 200, state.received);
  if (path === "/_standin/refunds-pending") {
    state.refundsPending.add(url.searchParams.get("match") ?? "");
    return send(res, 200, {});
  }
  if (path === "/_standin/outage") {
    state.outages.push({ match: url.searchParams.get("match") ?? "", count: Number(url.searchParams.get("count") ?? 1) });
    return send(res, 200, {});
  }
  const pay = /^\/_standin\/sessions\/([^/]+)\/pay$/.exec(path);
  if (pay) {
    const s = state.sessions.get(pay[1]);
    if (!s) return send(res, 404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
    const paid: Stripe.Checkout.Session = { ...s, status: "complete", payment_status: "paid", payment_intent: s.payment_intent ?? id("pi"), url: null };
    state.sessions.set(s.id, paid);
    return send(res, 200, paid);
  }
  const form = Object.fromEntries(new URLSearchParams(text));
  const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
  state.received.push({ method: req.method ?? "", path, key, form });
  const outage = state.outages.find((o) => o.count > 0 && text.includes(o.match));
  if (outage) {
    outage.count--;
    return send(res, 503, { error: { type: "api_error", message: "The stand-in is down (told to be)." } });
  }
  if (!String(req.headers.authorization ?? "").startsWith("Bearer ")) return send(res, 401, { error: { type: "invalid_request_error", message: "No API key provided." } });
  const seen = key ? state.answers.get(`${req.headers.authorization} ${key}`) : undefined;
  if (seen) {
    res.setHeader("Idempotent-Replayed", "true");
    return send(res, seen.status, seen.body);
  }
  let answer: { status: number; body: unknown };
  const get = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
  if (req.method === "POST" && path === "/v1/checkout/sessions") {
    const s = newSession(form);
    state.sessions.set(s.id, s);
    answer = { status: 200, body: s };
  } else if (req.method === "POST" && /^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(path)) {
    // Stripe expires an open session; a complete one is refused (400 invalid_request_error)
    const s = state.sessions.get(path.split("/")[4]);
    if (!s) answer = { status: 404, body: { error: { type: "invalid_request_error", message: "No such checkout.session" } } };
    else if (s.status !== "open") answer = { status: 400, body: { error: { type: "invalid_request_error", message: `This Checkout Session is ${s.status}: only an open session can be expired.` } } };
    else {
      const expired: Stripe.Checkout.Session = { ...s, status: "expired", url: null };
      state.sessions.set(s.id, expired);
      answer = { status: 200, body: expired };
    }
  } else if (req.method === "GET" && get) {
    const s = state.sessions.get(get[1]);
    answer = s ? { status: 200, body: s } : { status: 404, body: { error: { type: "invalid_request_error", message: "No such checkout.session" } } };
  } else if (req.method === "POST" && path === "/v1/refunds") {
    answer = { status: 200, body: newRefund(form) };
  } else {
    answer = { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path}).` } } };
  }
  if (key && req.method === "POST") state.answers.set(`${req.headers.authorization} ${key}`, answer);
  return send(res, answer.status, answer.body);
}

/** Start the stand-in on a free loopback port; its base URL (STRIPE_API_BASE). */
export async function startStripeStandin(): Promise<{ url: string }> {
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => void handle(req, res, text).catch((err) => send(res, 500, { error: { type: "api_error", message: String(err) } })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  server.unref();
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}` };
}
