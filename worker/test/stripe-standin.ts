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
 *
 * With `hostedPages` (the e2e servers' stand-in, started by e2e/fixtures.ts), a session's `url` is
 * the stand-in's own payment page instead of checkout.stripe.com, for a browser to use:
 *
 *   GET  /checkout/{id}              the page: what is paid, a Pay button, a Cancel link (cancel_url)
 *   POST /checkout/{id}/pay          the session paid, Stripe's signed `checkout.session.completed`
 *                                    POSTed to the business's webhook (signed with its secret by the
 *                                    SDK's generateTestHeaderStringAsync), then 303 to success_url
 *   POST /_standin/webhook-targets   {business_id, url, secret}: where a business's events go
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Stripe from "stripe";
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
  /** The stand-in's own base URL when it serves payment pages (else sessions point at checkout.stripe.com). */
  hostedBase: null as string | null,
  /** Where each business's events go: its webhook URL and signing secret. */
  targets: new Map<string, { url: string; secret: string }>(),
  /** The events the payment pages sent, with the webhook's answer. */
  delivered: [] as { type: string; session: string; status: number }[],
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
    url: state.hostedBase ? `${state.hostedBase}/checkout/${sid}` : `https://checkout.stripe.com/c/pay/${sid}`,
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

/** The session as Stripe has it once the guest paid: complete, paid, with a PaymentIntent. */
function paySession(s: Stripe.Checkout.Session): Stripe.Checkout.Session {
  const paid: Stripe.Checkout.Session = { ...s, status: "complete", payment_status: "paid", payment_intent: s.payment_intent ?? id("pi"), url: null };
  state.sessions.set(s.id, paid);
  return paid;
}

const escape = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The stand-in's payment page: what is paid, Pay, Cancel. */
function paymentPage(s: Stripe.Checkout.Session): string {
  const amount = `${((s.amount_total ?? 0) / 100).toFixed(2)} ${(s.currency ?? "").toUpperCase()}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay ${escape(amount)} (Stripe stand-in)</title></head>
<body><main><h1>Pay <span data-amount>${escape(amount)}</span></h1>
<p>Stripe stand-in: a test payment page. Nothing is charged.</p>
${s.status === "open" ? `<form method="post" action="/checkout/${escape(s.id)}/pay"><button type="submit">Pay</button></form>` : `<p data-session-status>${escape(s.status ?? "")}</p>`}
<p><a href="${escape(s.cancel_url ?? "/")}">Cancel</a></p></main></body></html>`;
}

/** Stripe's `checkout.session.completed` about `s`, signed with the business's secret, POSTed to its webhook. */
async function sendCompleted(s: Stripe.Checkout.Session): Promise<void> {
  const target = state.targets.get(s.metadata?.business_id ?? "");
  if (!target) return;
  const event = {
    id: id("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object: s },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: "checkout.session.completed",
  } as Stripe.Event;
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: target.secret, timestamp: Math.floor(Date.now() / 1000) });
  const res = await fetch(target.url, { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": signature }, body: payload });
  state.delivered.push({ type: event.type, session: s.id, status: res.status });
}

async function handle(req: IncomingMessage, res: ServerResponse, text: string) {
  const url = new URL(req.url ?? "/", "http://standin");
  const path = url.pathname;
  if (path === "/_standin/webhook-targets" && req.method === "POST") {
    const t = JSON.parse(text) as { business_id: number | string; url: string; secret: string };
    state.targets.set(String(t.business_id), { url: t.url, secret: t.secret });
    return send(res, 200, {});
  }
  if (path === "/_standin/delivered") return send(res, 200, state.delivered);
  const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
  if (page) {
    const s = state.sessions.get(page[1]);
    if (!s) return send(res, 404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
    if (!page[2]) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(paymentPage(s));
    }
    if (req.method !== "POST" || s.status !== "open") {
      res.writeHead(409, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(paymentPage(s));
    }
    const paid = paySession(s);
    await sendCompleted(paid);
    res.writeHead(303, { Location: paid.success_url ?? "/" });
    return res.end();
  }
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
    return send(res, 200, paySession(s));
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

/** Start the stand-in on a free loopback port; its base URL (STRIPE_API_BASE). `hostedPages`: sessions' urls are its own payment pages (e2e). */
export async function startStripeStandin(options: { hostedPages?: boolean } = {}): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => void handle(req, res, text).catch((err) => send(res, 500, { error: { type: "api_error", message: String(err) } })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  server.unref();
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  if (options.hostedPages) state.hostedBase = base;
  return { url: base, close: () => server.close() };
}
