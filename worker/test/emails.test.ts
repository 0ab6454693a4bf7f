/**
 * E-mails through the outbox (docs/email.md), with the real local send_email binding: what a
 * booking and a cancellation write in their own batch, what the delivery object hands to the
 * binding (read back from the .eml files it wrote, worker/test/mail-files.ts), retries, a crash
 * between the booking and the send, and never two e-mails for one event.
 */
import { createExecutionContext, env, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import worker from "../src/index";
import { mailStub } from "../src/db/emails";
import { composeEmail } from "../src/mail/compose";
import { platformMail } from "../src/domain/email/sender";
import { snapshotAt } from "../src/db/tenant-read";
import { markMoving } from "../src/db/shards";
import { addToCart, cartBusiness, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { BASE, callJson, createKey, fetchWorker, watchedDb } from "./helpers";
import { createStaff, signedIn } from "./admin-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const MAIL = { email_from: "mail@camp.example", notification_emails: ["owner@camp.example", "desk@camp.example"], languages: ["en", "de"], default_language: "en" };

/** A business of its own that sends e-mail, a package, and its keys. */
async function mailBusiness(config: Record<string, unknown> = {}) {
  const { businessId, key } = await cartBusiness({ ...MAIL, ...config });
  const pkg = await smallPackage(businessId, 5, "Surf Week");
  return { businessId, key, pkg, privateKey: await createKey("private", businessId) };
}

/** A booking for one guest, checked out by a booker speaking `language`. */
async function book(b: { key: string; pkg: number }, language = "en", headers: Record<string, string> = {}) {
  const { start, end } = stay(2);
  const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
  expect(added.status).toBe(201);
  const booker = customer({ language_code: language });
  const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body: { terms_accepted: true, customer: booker }, headers });
  return { ...res, booker };
}

const rows = async (businessId: number) =>
  (await env.DB.prepare("SELECT * FROM emails WHERE business_id = ? ORDER BY kind, recipient").bind(businessId).all<any>()).results;

/**
 * A booking whose process dies right after its batch: the word to the delivery object never
 * arrives, and its e-mails wait, pending. Answers the booker.
 */
async function bookUnheard(b: { key: string; pkg: number }, booker = customer()) {
  const { start, end } = stay(2);
  const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
  expect(added.status).toBe(201);
  const lost = { ...env, EMAIL_DELIVERY: { idFromName: env.EMAIL_DELIVERY.idFromName.bind(env.EMAIL_DELIVERY), get: () => { throw new Error("the process died"); } } } as unknown as Env;
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/api/pub/v2/carts/${added.body.cart_id}/checkout`, {
      method: "POST",
      headers: { Authorization: `Bearer ${b.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ terms_accepted: true, customer: booker }),
    }),
    lost,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return booker;
}

/** Wait until the business's delivery object has nothing running or due. */
async function settled(businessId: number) {
  await mailStub(env, businessId).idle();
}

/** Fire the delivery object's alarm at `at` on its clock, and wait for the run. */
async function alarmAt(businessId: number, at: Date) {
  const stub = mailStub(env, businessId);
  await stub.setTestNow(at.toISOString());
  await runDurableObjectAlarm(stub);
  await stub.idle();
}

/** What the local send_email binding was handed with this Message-ID (the .eml files it wrote). */
async function handedOver(messageId: string): Promise<{ file: string; raw: string }[]> {
  const res = await fetch(`http://127.0.0.1:${inject("mailFilesPort")}/mail?message_id=${encodeURIComponent(messageId)}`);
  return res.json();
}

/** The decoded text/plain part of a message this service built (base64, UTF-8). */
function textPart(raw: string): string {
  const m = /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(raw);
  if (!m) throw new Error("no text part");
  return new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/\r\n/g, "")), (c) => c.charCodeAt(0)));
}
const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(raw)?.[1]?.trim();

describe("a booking's e-mails", () => {
  it("are written with the booking and handed to the binding: the booker's in their language, one to each notification address", async () => {
    const b = await mailBusiness();
    const res = await book(b, "de");
    expect(res.status).toBe(200);
    // the widget names this address: the e-mail really goes there
    expect(res.body.confirmation_email).toBe(res.booker.email);
    await settled(b.businessId);
    const emails = await rows(b.businessId);
    expect(emails.map((e: any) => [e.kind, e.recipient, e.language, e.status])).toEqual([
      ["booking_confirmation", res.booker.email, "de", "sent"],
      ["owner_new_booking", "desk@camp.example", "en", "sent"],
      ["owner_new_booking", "owner@camp.example", "en", "sent"],
    ]);
    const confirmation = emails[0];
    const [file] = await handedOver(confirmation.message_id);
    expect(file.raw.replace(/\r\n/g, "\n")).toBe(confirmation.raw.replace(/\r\n/g, "\n"));
    expect(header(file.raw, "To")).toBe(res.booker.email);
    expect(header(file.raw, "Content-Language")).toBe("de");
    const text = textPart(file.raw);
    expect(text).toContain(`Buchungsnummer: ${res.body.reference}`);
    expect(text).toContain("Surf Week");
    expect(text).toContain("Online wurde nichts abgebucht");
    for (const owner of emails.slice(1)) expect(textPart((await handedOver(owner.message_id))[0].raw)).toContain(`Booked by: ${res.booker.first_name} ${res.booker.last_name}`);
  });

  it("are composed from the business as it is at each attempt: a rename since the booking is in the message, though this process remembered the catalog before it", async () => {
    const b = await mailBusiness();
    const res = await book(b);
    await settled(b.businessId);
    const confirmation = (await rows(b.businessId)).find((e: any) => e.kind === "booking_confirmation");
    // this process's catalog of the business as it was; then a rename (the trigger changes its version)
    expect((await snapshotAt(env.DB, b.businessId, undefined)).business.title).not.toBe("Renamed Surf Lodge");
    await env.DB.prepare("UPDATE businesses SET title = ? WHERE id = ?").bind("Renamed Surf Lodge", b.businessId).run();
    const again = await composeEmail(env.DB, confirmation, new Date(), platformMail(env));
    expect(header(again.raw, "From")).toContain("Renamed Surf Lodge");
    expect(textPart(again.raw)).toContain("Renamed Surf Lodge");
    expect(textPart(again.raw)).toContain(res.body.reference);
  });

  // What each language's confirmation says: its reference's label and that nothing was charged.
  it.each([
    ["fr", "Référence de la réservation", "Rien n’a été débité en ligne"],
    ["pt", "Referência da reserva", "Nada foi cobrado online"],
    ["it", "Codice di prenotazione", "Non è stato addebitato nulla online"],
    ["nl", "Boekingsnummer", "Er is online niets afgeschreven"],
  ])("a booking made in %s gets its confirmation in that language, the business's own e-mails in its default language", async (language, reference, nothingCharged) => {
    const b = await mailBusiness({ languages: ["en", "de", "es", "pt", "fr", "it", "nl"] });
    const res = await book(b, language);
    expect(res.status).toBe(200);
    await settled(b.businessId);
    const [confirmation, owner] = await rows(b.businessId);
    expect([confirmation.kind, confirmation.language, owner.kind, owner.language]).toEqual(["booking_confirmation", language, "owner_new_booking", "en"]);
    const [file] = await handedOver(confirmation.message_id);
    expect(header(file.raw, "Content-Language")).toBe(language);
    const text = textPart(file.raw);
    expect(text).toContain(`${reference}: ${res.body.reference}`);
    expect(text).toContain(nothingCharged);
  });
});

describe("no booking, no e-mail; the platform's sender for a business without its own", () => {
  it("a checkout that books nothing writes no e-mail", async () => {
    const b = await mailBusiness();
    const { start, end } = stay(2);
    // a cart opened an hour ago has expired: its checkout books nothing
    const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date(Date.now() - 3600_000).toISOString());
    expect(added.status).toBe(201);
    const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body: { terms_accepted: true, customer: customer() } });
    expect(res.status).toBe(410);
    expect(await rows(b.businessId)).toEqual([]);
  });

  // With neither its own sender nor the platform's, nothing is sent or promised: trust-email.test.ts.
  it("a business without a sender of its own sends from the platform's (EMAIL_DEFAULT_FROM), and the answer promises the e-mail", async () => {
    const b = await mailBusiness({ email_from: null });
    const res = await book(b);
    expect(res.status).toBe(200);
    expect(res.body.confirmation_email).toBe(res.booker.email);
    await settled(b.businessId);
    const sent = await rows(b.businessId);
    expect(sent.map((e: any) => [e.kind, e.status, e.sender])).toEqual([
      ["booking_confirmation", "sent", "bookings@platform.example"],
      ["owner_new_booking", "sent", "bookings@platform.example"],
      ["owner_new_booking", "sent", "bookings@platform.example"],
    ]);
  });
});

describe("delivery", () => {
  it("a failing send is retried on the backoff and then succeeds, once, with the same Message-ID", async () => {
    // The binding refuses this sender, as Cloudflare refuses one whose domain is not onboarded yet.
    const b = await mailBusiness({ email_from: "mail@unverified.example", notification_emails: [] });
    const res = await book(b);
    expect(res.body.confirmation_email).toBe(res.booker.email);
    await settled(b.businessId);
    let [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "retrying", attempts: 1 });
    expect(email.last_error).toContain("email from mail@unverified.example not allowed");
    expect(Date.parse(email.next_attempt_at) - Date.parse(email.updated_at)).toBe(5000);
    expect(await handedOver(email.message_id)).toEqual([]);
    // the owner sees why, and fixes the sender
    const listed = await callJson("/private/emails?status=retrying", { key: b.privateKey });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: email.id, status: "retrying", last_error: email.last_error })]);
    await env.DB.prepare("UPDATE businesses SET config = json_set(config, '$.email_from', 'mail@camp.example') WHERE id = ?").bind(b.businessId).run();
    // not before its time
    await alarmAt(b.businessId, new Date(Date.parse(email.updated_at) + 2000));
    expect((await rows(b.businessId))[0]).toMatchObject({ status: "retrying", attempts: 1 });
    await alarmAt(b.businessId, new Date(Date.parse(email.next_attempt_at) + 1000));
    [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "sent", attempts: 2, last_error: null, sender: "mail@camp.example" });
    const files = await handedOver(email.message_id);
    expect(files).toHaveLength(1);
    expect(header(files[0].raw, "From")).toContain("<mail@camp.example>");
    // nothing more is due: more alarms send nothing more
    await alarmAt(b.businessId, new Date(Date.now() + 86_400_000));
    expect(await handedOver(email.message_id)).toHaveLength(1);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM emails WHERE business_id = ?").bind(b.businessId).first("n")).toBe(1);
  });

  it("a crash between the booking and the send loses nothing: the next upkeep delivers the e-mail", async () => {
    const b = await mailBusiness({ notification_emails: [] });
    const booker = await bookUnheard(b);
    let [email] = await rows(b.businessId);
    expect(email).toMatchObject({ kind: "booking_confirmation", status: "pending", attempts: 0, recipient: booker.email });
    await settled(b.businessId);
    expect((await rows(b.businessId))[0].status).toBe("pending");
    // The scheduled upkeep (every 10 minutes) finds it overdue and wakes the business's delivery.
    await worker.scheduled({ scheduledTime: Date.now() + 120_000, cron: "*/10 * * * *", noRetry() {} } as ScheduledController, env);
    await settled(b.businessId);
    [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "sent", attempts: 1 });
    expect(await handedOver(email.message_id)).toHaveLength(1);
  });
});

/** One run of the business's delivery object over what is due, its D1 being `db`. */
async function runOnce(businessId: number, db: D1Database): Promise<void> {
  const stub = mailStub(env, businessId) as unknown as DurableObjectStub;
  await runInDurableObject(stub, async (instance) => {
    const object = instance as unknown as { env: Env; kick(id: number): Promise<void>; idle(): Promise<void> };
    object.env = Object.assign({}, env, { DB: db });
    await object.kick(businessId);
    await object.idle();
  });
}

describe("a run's round trips", () => {
  it("each e-mail costs one D1 round trip: its claim and its message's reads together, its outcome recorded with the next", async () => {
    const b = await mailBusiness(); // the booker and two notification addresses: three e-mails a booking
    // Two bookings whose kicks never arrive, so that one run finds their six e-mails due.
    await bookUnheard(b);
    await bookUnheard(b);
    expect((await rows(b.businessId)).map((e) => e.status)).toEqual(Array(6).fill("pending"));
    const trips = { count: 0 };
    await runOnce(b.businessId, watchedDb({ trip: () => void trips.count++ }));
    const sent = await rows(b.businessId);
    expect(sent.map((e) => e.status)).toEqual(Array(6).fill("sent"));
    for (const e of sent) expect(await handedOver(e.message_id)).toHaveLength(1);
    // Six e-mails, and around them: the directory's entry, the due e-mails, the last record with
    // the look at when the next is due. Claimed, read and recorded one by one it was 23.
    expect(trips.count).toBeLessThanOrEqual(6 + 3);
  });

  it("a message's read that D1 refuses fails that attempt, with its reason, tried again on the backoff", async () => {
    const b = await mailBusiness({ notification_emails: [] });
    await bookUnheard(b);
    // Every batch that reads the booking is refused.
    const refusing = watchedDb({
      beforeBatch: (sqls) => {
        if (sqls.some((sql) => sql.includes("FROM bookings WHERE id"))) throw new Error("D1_ERROR: no such column: booking_idx");
      },
    });
    await runOnce(b.businessId, refusing);
    const [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "retrying", attempts: 1 });
    expect(email.last_error).toContain("no such column: booking_idx");
    expect(Date.parse(email.next_attempt_at) - Date.parse(email.updated_at)).toBe(5000);
    expect(await handedOver(email.message_id)).toEqual([]);
  });

  it("a round trip that fails after a send still records it: the record is made alone, and the run goes on", async () => {
    const b = await mailBusiness({ notification_emails: ["owner@camp.example"] });
    await bookUnheard(b);
    let failed = 0;
    // The first batch that carries a sent e-mail's record fails, as D1 may.
    const failing = watchedDb({
      beforeBatch: (sqls) => {
        if (!failed && sqls[0]?.includes("status = 'sent'")) {
          failed++;
          throw new Error("D1_ERROR: Network connection lost.");
        }
      },
    });
    await runOnce(b.businessId, failing);
    expect(failed).toBe(1);
    const emails = await rows(b.businessId);
    expect(emails.map((e) => [e.status, e.attempts, e.unconfirmed_attempts])).toEqual([["sent", 1, 0], ["sent", 1, 0]]);
    for (const e of emails) expect(await handedOver(e.message_id)).toHaveLength(1);
  });
});

describe("failed", () => {
  /** The business's Outbox page for one e-mail, as its owner sees it. */
  async function outboxPage(businessId: number, id: string) {
    const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<string>("slug"))!;
    const owner = await signedIn(slug, (await createStaff(businessId, "owner")).email);
    return (await owner.get(`/admin/${slug}/emails/${id}`)).text();
  }

  it("an e-mail whose every attempt fails is failed after its 10th, with the reason, in the API and the Outbox", async () => {
    const b = await mailBusiness({ email_from: "mail@unverified.example", notification_emails: [] });
    await book(b);
    await settled(b.businessId);
    let [email] = await rows(b.businessId);
    for (let attempt = 2; attempt <= 10; attempt++) {
      expect(email, `before attempt ${attempt}`).toMatchObject({ status: "retrying", attempts: attempt - 1 });
      await alarmAt(b.businessId, new Date(Date.parse(email.next_attempt_at) + 1000));
      [email] = await rows(b.businessId);
    }
    expect(email).toMatchObject({ status: "failed", attempts: 10, next_attempt_at: null });
    expect(email.last_error).toContain("email from mail@unverified.example not allowed");
    // no 11th: a later alarm hands nothing over
    await alarmAt(b.businessId, new Date(Date.now() + 30 * 86_400_000));
    expect((await rows(b.businessId))[0]).toMatchObject({ status: "failed", attempts: 10 });
    expect(await handedOver(email.message_id)).toEqual([]);
    const listed = await callJson("/private/emails?status=failed", { key: b.privateKey });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: email.id, status: "failed", last_error: email.last_error })]);
    const page = await outboxPage(b.businessId, email.id);
    expect(page).toContain('data-status="failed"');
    expect(page).toContain("email from mail@unverified.example not allowed");
  });

  it("an error no retry mends fails the e-mail at its first attempt", async () => {
    const b = await mailBusiness({ notification_emails: [] });
    // Cloudflare's answer for a suppressed recipient, which the local binding cannot give: the
    // delivery object's binding, for this business only, answers it (the real code path after it).
    const stub = mailStub(env, b.businessId);
    const inObject = runInDurableObject as unknown as (stub: unknown, fn: (instance: any) => Promise<void>) => Promise<void>;
    let own: unknown;
    await inObject(stub, async (delivery) => {
      own = delivery.env;
      const refusing = { send: async () => Promise.reject(Object.assign(new Error("recipient is on the suppression list"), { code: "E_RECIPIENT_SUPPRESSED" })) };
      delivery.env = { ...delivery.env, EMAIL: refusing };
    });
    try {
      await book(b);
      await settled(b.businessId);
    } finally {
      await inObject(stub, async (delivery) => {
        delivery.env = own;
      });
    }
    const [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    expect(email.last_error).toBe("E_RECIPIENT_SUPPRESSED: recipient is on the suppression list");
    expect((await callJson(`/private/emails/${email.id}`, { key: b.privateKey })).body.data).toMatchObject({ status: "failed", last_error: email.last_error });
    expect(await outboxPage(b.businessId, email.id)).toContain('data-status="failed"');
  });
});

describe("never twice for one event", () => {
  it("a checkout replayed under its Idempotency-Key writes no second e-mail", async () => {
    const b = await mailBusiness({ notification_emails: ["owner@camp.example"] });
    const { start, end } = stay(2);
    const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
    const body = { terms_accepted: true, customer: customer() };
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body, headers });
    const again = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body, headers });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.confirmation_email).toBe(first.body.confirmation_email);
    await settled(b.businessId);
    const emails = await rows(b.businessId);
    expect(emails.map((e: any) => e.kind)).toEqual(["booking_confirmation", "owner_new_booking"]);
    for (const e of emails) expect(await handedOver(e.message_id)).toHaveLength(1);
  });

  it("runs that meet (a kick and the alarm) send each e-mail once", async () => {
    const b = await mailBusiness();
    const res = await book(b);
    const stub = mailStub(env, b.businessId);
    await Promise.all([stub.kick(b.businessId), runDurableObjectAlarm(stub), stub.kick(b.businessId)]);
    await stub.idle();
    const emails = await rows(b.businessId);
    expect(emails).toHaveLength(3);
    for (const e of emails) {
      expect(e).toMatchObject({ status: "sent", attempts: 1 });
      expect(await handedOver(e.message_id)).toHaveLength(1);
    }
    expect(res.status).toBe(200);
  });

  it("an attempt cut off before its outcome was recorded is made again after its lease, with the same Message-ID, and shows as a possible duplicate", async () => {
    const b = await mailBusiness({ email_from: "mail@unverified.example", notification_emails: [] });
    await book(b);
    await settled(b.businessId);
    let [email] = await rows(b.businessId);
    // What a crash during the send leaves: the e-mail claimed (`sending`, its lease running) and no outcome.
    await env.DB.prepare("UPDATE emails SET status = 'sending', next_attempt_at = ? WHERE id = ?").bind(new Date(Date.now() + 600_000).toISOString(), email.id).run();
    await env.DB.prepare("UPDATE businesses SET config = json_set(config, '$.email_from', 'mail@camp.example') WHERE id = ?").bind(b.businessId).run();
    await alarmAt(b.businessId, new Date(Date.now() + 60_000));
    expect((await rows(b.businessId))[0].status).toBe("sending");
    await alarmAt(b.businessId, new Date(Date.now() + 601_000));
    [email] = await rows(b.businessId);
    expect(email).toMatchObject({ status: "sent", attempts: 2, unconfirmed_attempts: 1 });
    const api = await callJson(`/private/emails/${email.id}`, { key: b.privateKey });
    expect(api.body.data).toMatchObject({ status: "sent", possible_duplicate: true, message_id: email.message_id });
    expect(header(api.body.data.raw, "Message-ID")).toBe(email.message_id);
    expect(header(api.body.data.raw, "X-Booking-Email-Id")).toBe(email.id);
  });
});

describe("cancellation and the owner's view", () => {
  it("a cancellation through the private API e-mails the booker and the business; the owner lists, reads and resends", async () => {
    const b = await mailBusiness({ notification_emails: ["owner@camp.example"] });
    const booked = await book(b, "de");
    const cancel = await callJson(`/private/bookings/${booked.body.id}/cancel`, { key: b.privateKey, method: "POST" });
    expect(cancel.status).toBe(200);
    await settled(b.businessId);
    const list = await callJson(`/private/emails?booking_id=${booked.body.id}&kind=booking_cancelled,owner_booking_cancelled`, { key: b.privateKey });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("2");
    const byKind = Object.fromEntries(list.body.data.map((e: any) => [e.kind, e]));
    expect(byKind.booking_cancelled).toMatchObject({ recipient: booked.booker.email, language: "de", status: "sent" });
    expect(byKind.booking_cancelled.subject).toBe(`Ihre Buchung ${booked.body.reference} bei Business ${(await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(b.businessId).first("slug"))} wurde storniert`);
    expect(byKind.owner_booking_cancelled).toMatchObject({ recipient: "owner@camp.example", language: "en", status: "sent" });
    expect(list.body.data[0].raw).toBeUndefined();

    const one = await callJson(`/private/emails/${byKind.booking_cancelled.id}`, { key: b.privateKey });
    expect(textPart(one.body.data.raw)).toContain(`Ihre Buchung ${booked.body.reference}`);

    // resend: a new e-mail, sent at once, under its own Message-ID; the original keeps its record
    const resent = await callJson(`/private/emails/${byKind.booking_cancelled.id}/resend`, { key: b.privateKey, method: "POST" });
    expect(resent.status).toBe(202);
    expect(resent.body.data).toMatchObject({ resend_of: byKind.booking_cancelled.id, recipient: booked.booker.email, status: "pending" });
    expect(resent.body.data.message_id).not.toBe(byKind.booking_cancelled.message_id);
    await settled(b.businessId);
    const after = await callJson(`/private/emails/${resent.body.data.id}`, { key: b.privateKey });
    expect(after.body.data.status).toBe("sent");
    expect(await handedOver(after.body.data.message_id)).toHaveLength(1);
    expect(await handedOver(byKind.booking_cancelled.message_id)).toHaveLength(1);

    // another business's key finds nothing; an e-mail still on its way is not resent
    const other = await mailBusiness();
    expect((await callJson(`/private/emails/${byKind.booking_cancelled.id}`, { key: other.privateKey })).status).toBe(404);
    expect((await callJson(`/private/emails/${byKind.booking_cancelled.id}/resend`, { key: other.privateKey, method: "POST" })).status).toBe(404);
    await env.DB.prepare("UPDATE emails SET status = 'retrying' WHERE id = ?").bind(resent.body.data.id).run();
    expect((await callJson(`/private/emails/${resent.body.data.id}/resend`, { key: b.privateKey, method: "POST" })).status).toBe(409);
    expect((await callJson("/private/emails?status=nope", { key: b.privateKey })).status).toBe(422);
  });
});

describe("the back office's Outbox", () => {
  it("shows owners and managers each e-mail with its status and reason and the message as sent; only an owner resends; front desk sees nothing", async () => {
    const b = await mailBusiness({ email_from: "mail@unverified.example", notification_emails: [] });
    const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(b.businessId).first<string>("slug"))!;
    const booked = await book(b, "de");
    await settled(b.businessId);
    const owner = await signedIn(slug, (await createStaff(b.businessId, "owner")).email);
    let page = await (await owner.get(`/admin/${slug}/emails`)).text();
    expect(page).toContain("Will retry");
    expect(page).toContain("email from mail@unverified.example not allowed");
    const [email] = await rows(b.businessId);
    page = await (await owner.get(`/admin/${slug}/emails/${email.id}`)).text();
    expect(page).toMatch(/data-reason[^>]*>email from mail@unverified.example not allowed/);
    expect(page).not.toContain(">Send again<"); // still on its way: nothing to resend yet

    // fixed, retried, sent: the message as sent, and the owner's resend button
    await env.DB.prepare("UPDATE businesses SET config = json_set(config, '$.email_from', 'mail@camp.example') WHERE id = ?").bind(b.businessId).run();
    await alarmAt(b.businessId, new Date(Date.now() + 10_000));
    page = await (await owner.get(`/admin/${slug}/emails/${email.id}`)).text();
    expect(page).toContain('data-status="sent"');
    expect(page).toContain(`Buchungsnummer: ${booked.body.reference}`);
    expect(page).toContain(">Send again<");

    const manager = await signedIn(slug, (await createStaff(b.businessId, "manager")).email);
    page = await (await manager.get(`/admin/${slug}/emails/${email.id}`)).text();
    expect(page).toContain(`Buchungsnummer: ${booked.body.reference}`);
    expect(page).not.toContain(">Send again<");
    expect((await manager.post(`/admin/${slug}/emails/${email.id}/resend`, {})).status).toBe(403);
    expect(await rows(b.businessId)).toHaveLength(1);
    const desk = await signedIn(slug, (await createStaff(b.businessId, "front_desk")).email);
    expect((await desk.get(`/admin/${slug}/emails`)).status).toBe(403);

    const resent = await owner.post(`/admin/${slug}/emails/${email.id}/resend`, {});
    expect(resent.status).toBe(303);
    await settled(b.businessId);
    const again = (await rows(b.businessId)).find((e: any) => e.resend_of === email.id);
    expect(again).toMatchObject({ status: "sent", recipient: booked.booker.email, language: "de" });
    expect(resent.headers.get("Location")).toContain(`/emails/${again.id}`);
    expect(await handedOver(again.message_id)).toHaveLength(1);
    const audit = await env.DB.prepare("SELECT actor_kind, action, entity_id FROM audit_log WHERE business_id = ? AND entity = 'email'").bind(b.businessId).all();
    expect(audit.results).toEqual([{ actor_kind: "staff", action: "resent", entity_id: email.id }]);
  });
});

describe("back-office invitations", () => {
  it("an owner's invitation is e-mailed with its one-time link; the kept copy has the link removed; it is never resent", async () => {
    const b = await mailBusiness({ notification_emails: [] });
    const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(b.businessId).first<string>("slug"))!;
    const owner = await signedIn(slug, (await createStaff(b.businessId, "owner")).email);
    const invitee = `new-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await owner.post(`/admin/${slug}/staff/invite`, { email: invitee, name: "Nova", role: "front_desk" });
    expect(res.status).toBe(201);
    const page = await res.text();
    expect(page).toContain(`An e-mail with this link is on its way to ${invitee}.`);
    const shownLink = /id="invite-link"[^>]*>([^<]+)</.exec(page)![1].trim();
    await settled(b.businessId);
    const [email] = (await rows(b.businessId)).filter((e: any) => e.kind === "staff_invitation");
    expect(email).toMatchObject({ recipient: invitee, status: "sent", language: "en", params: "{}" });
    // what the binding was handed carries the link; what the outbox keeps does not
    const [file] = await handedOver(email.message_id);
    const sent = textPart(file.raw);
    expect(header(file.raw, "To")).toBe(invitee);
    expect(sent).toContain(shownLink);
    expect(sent).toContain("as front desk");
    expect(email.raw).not.toContain(shownLink.split("/").pop());
    expect(textPart(email.raw)).toContain("[sign-in link removed once sent]");
    const api = await callJson(`/private/emails/${email.id}`, { key: b.privateKey });
    expect(api.body.data.raw).not.toContain(shownLink.split("/").pop());
    expect((await callJson(`/private/emails/${email.id}/resend`, { key: b.privateKey, method: "POST" })).status).toBe(409);
    // the link in the e-mail lets the invitee in
    const path = new URL(/https?:\/\/\S+\/admin\/invite\/[A-Za-z0-9_-]+/.exec(sent)![0]).pathname;
    const accept = await acceptInvitation(path);
    expect(accept).toBe(303);
  });
});

/** Accept an invitation at `path` with a password, as the invitee's browser would. */
async function acceptInvitation(path: string): Promise<number> {
  const res = await fetchWorker(new URL(path, BASE), {
    method: "POST",
    body: new URLSearchParams({ password: "correct horse battery", confirm: "correct horse battery" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
  });
  return res.status;
}

describe("the delivery object's log lines", () => {
  it("name the request whose change kicked the run they report (its X-Request-Id)", async () => {
    const b = await mailBusiness();
    // A run that cannot read the business's shard (it is being moved) fails, and says so.
    await markMoving(env.DB, b.businessId, `moving-${b.businessId}`, new Date().toISOString());
    const lines: Record<string, unknown>[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
      if (typeof line === "string" && line.startsWith("{")) lines.push(JSON.parse(line));
    });
    try {
      await mailStub(env, b.businessId).kick(b.businessId, "req-booking-mail-7");
      await settled(b.businessId);
    } finally {
      spy.mockRestore();
      await env.DB.prepare("DELETE FROM shard_directory WHERE business_id = ?").bind(b.businessId).run();
    }
    expect(lines).toContainEqual(expect.objectContaining({ level: "warn", msg: "mail run failed", business: b.businessId, request_id: "req-booking-mail-7" }));
  });
});
