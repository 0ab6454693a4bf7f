/**
 * Issue 28, e-mails that say the truth: the confirmation quotes the terms the guest accepted, in
 * their language, as the widget showed them. Read from the real message handed to the binding.
 */
import { createExecutionContext, env, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { BASE, callJson, createKey } from "./helpers";
import worker from "../src/index";
import { applyCatalog, exportCatalog } from "../src/manage/catalog/file";
import { CatalogFile } from "../src/contract/catalog-file";
import { mailStub } from "../src/db/emails";
import { decodedHeader, handedOver, mailHeader, mailSettled, outboxRows, textPart } from "./mail-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const TERMS = { en: "English terms: free cancellation up to 30 days.", de: "Deutsche Bedingungen: kostenlose Stornierung bis 30 Tage vorher.", es: "Condiciones en español: cancelación gratuita hasta 30 días antes." };

async function business() {
  const { businessId, key } = await cartBusiness({
    email_from: "mail@camp.example",
    languages: ["en", "de", "es"],
    default_language: "en",
    terms: TERMS.en,
    terms_translations: { de: TERMS.de },
  });
  return { businessId, key, pkg: await smallPackage(businessId, 5, "Surf Week") };
}

async function confirmationOf(b: { businessId: number; key: string; pkg: number }, language: string) {
  const { start, end } = stay(2);
  const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
  expect(added.status).toBe(201);
  const booker = customer({ language_code: language });
  const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body: { terms_accepted: true, customer: booker } });
  expect(res.status).toBe(200);
  await mailSettled(b.businessId);
  const row = (await outboxRows(b.businessId)).find((e: any) => e.kind === "booking_confirmation" && e.recipient === booker.email);
  const [file] = await handedOver(row.message_id);
  return { raw: file.raw, text: textPart(file.raw) };
}

describe("the confirmation's terms", () => {
  it("are the German terms for a German guest, and the default terms where the business wrote none in the guest's language", async () => {
    const b = await business();
    const de = await confirmationOf(b, "de");
    expect(mailHeader(de.raw, "Content-Language")).toBe("de");
    expect(de.text).toContain(TERMS.de);
    expect(de.text).not.toContain(TERMS.en);
    const es = await confirmationOf(b, "es");
    expect(es.text).toContain(TERMS.en);
    const en = await confirmationOf(b, "en");
    expect(en.text).toContain(TERMS.en);
    expect(en.text).not.toContain(TERMS.de);
  });

  it("are the ones the widget showed in that language", async () => {
    const b = await business();
    const { slug } = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(b.businessId).first<{ slug: string }>())!;
    const boot = await callJson(`/widget/v1/${slug}/bootstrap?language=de`);
    expect(boot.status).toBe(200);
    expect(boot.body.language).toBe("de");
    expect(boot.body.settings.terms).toBe(TERMS.de);
    expect((await callJson(`/widget/v1/${slug}/bootstrap?language=es`)).body.settings.terms).toBe(TERMS.en);
  });
});

describe("after a crash in the middle of sending", () => {
  it("the e-mails not tried yet go out within a minute, not after the ten-minute lease", async () => {
    // Three e-mails held back by a sender the binding refuses, then the sender fixed.
    const { businessId, key } = await cartBusiness({ email_from: "mail@unverified.example", notification_emails: ["owner@camp.example", "desk@camp.example"] });
    const pkg = await smallPackage(businessId, 5, "Surf Week");
    const { start, end } = stay(2);
    const added = await addToCart(key, { guests: [guest(pkg, start, end)] }, new Date().toISOString());
    expect((await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() } })).status).toBe(200);
    await mailSettled(businessId);
    expect((await outboxRows(businessId)).map((e: any) => e.status)).toEqual(["retrying", "retrying", "retrying"]);
    await env.DB.prepare("UPDATE businesses SET config = json_set(config, '$.email_from', 'mail@camp.example') WHERE id = ?").bind(businessId).run();

    // A run whose process dies at its first attempt (injected: workerd cannot be killed from here).
    const stub = mailStub(env, businessId);
    await stub.setTestNow(new Date(Date.now() + 10_000).toISOString());
    // (runInDurableObject's types go too deep on this object's RPC stub: typed by hand.)
    const inObject = runInDurableObject as unknown as <R>(stub: unknown, fn: (instance: any, state: DurableObjectState) => Promise<R>) => Promise<R>;
    const alarm = await inObject(stub, async (instance, state) => {
      await state.storage.deleteAlarm();
      instance.attempt = async () => {
        throw new Error("the process died here");
      };
      try {
        await instance.drain().catch(() => undefined);
      } finally {
        delete instance.attempt;
      }
      return state.storage.getAlarm();
    });
    expect(alarm).not.toBeNull();
    expect(alarm! - Date.now()).toBeLessThanOrEqual(60_000);

    // The restarted object's alarm, a minute later on its clock, sends all three.
    await stub.setTestNow(new Date(Date.now() + 61_000).toISOString());
    await runDurableObjectAlarm(stub);
    await stub.idle();
    expect((await outboxRows(businessId)).map((e: any) => e.status)).toEqual(["sent", "sent", "sent"]);
  });
});

describe("text a stranger typed at checkout", () => {
  it("is never the greeting or the subject of the e-mail the business sends to the address they typed", async () => {
    const b = await business();
    const { start, end } = stay(2);
    const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
    const lure = "URGENT your card was charged 2000 EUR. Dispute at https://evil.example/refund";
    const booker = customer({ first_name: lure, last_name: "Support" });
    expect((await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, body: { terms_accepted: true, customer: booker } })).status).toBe(200);
    await mailSettled(b.businessId);
    const row = (await outboxRows(b.businessId)).find((e: any) => e.kind === "booking_confirmation");
    const [file] = await handedOver(row.message_id);
    const text = textPart(file.raw);
    expect(mailHeader(file.raw, "Subject")).not.toContain("URGENT");
    const lines = text.split("\n").map((l) => l.trim());
    const hello = lines.indexOf("Hello,");
    expect(hello).toBeGreaterThanOrEqual(0);
    // Nothing the stranger typed before the booking's labelled data.
    expect(lines.slice(0, hello + 2).join("\n")).not.toContain("URGENT");
  });
});

describe("e-mails to one address in a day", () => {
  it("stop at max_emails_per_recipient_per_day: the next fails unsent with its reason, other addresses and the owner's are sent", async () => {
    const { businessId, key } = await cartBusiness({ email_from: "mail@camp.example", notification_emails: ["owner@camp.example"], max_emails_per_recipient_per_day: 2 });
    const pkg = await smallPackage(businessId, 50, "Surf Week");
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const bookWith = async (email: string) => {
      const { start, end } = stay(2);
      const added = await addToCart(key, { guests: [guest(pkg, start, end)] }, new Date().toISOString());
      const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer({ email }) } });
      expect(res.status).toBe(200);
      await mailSettled(businessId);
    };
    await bookWith(victim);
    await bookWith(victim.toUpperCase());
    await bookWith(victim);
    await bookWith("someone-else@example.com");
    const rows = await outboxRows(businessId);
    const toVictim = rows.filter((e: any) => e.recipient.toLowerCase() === victim).map((e: any) => e.status).sort();
    expect(toVictim).toEqual(["failed", "sent", "sent"]);
    const refused = rows.find((e: any) => e.status === "failed");
    expect(refused.last_error).toContain("max_emails_per_recipient_per_day");
    expect(await handedOver(refused.message_id)).toEqual([]);
    expect(rows.filter((e: any) => e.recipient === "someone-else@example.com").map((e: any) => e.status)).toEqual(["sent"]);
    expect(rows.filter((e: any) => e.kind === "owner_new_booking").map((e: any) => e.status)).toEqual(["sent", "sent", "sent", "sent"]);
  });
});

describe("who the e-mails are from (docs/email.md, the sending-domain rule)", () => {
  /** A booking through the API, with the platform's configuration `vars` when given; its answer and the business's e-mails as handed to the binding. */
  async function bookAt(b: { businessId: number; key: string; pkg: number }, vars: Record<string, string> = {}) {
    const { start, end } = stay(2);
    const added = await addToCart(b.key, { guests: [guest(b.pkg, start, end)] }, new Date().toISOString());
    const booker = customer();
    const body = JSON.stringify({ terms_accepted: true, customer: booker });
    const request = new Request(`${BASE}/api/pub/v2/carts/${added.body.cart_id}/checkout`, {
      method: "POST",
      headers: { Authorization: `Bearer ${b.key}`, "Content-Type": "application/json", "Content-Length": String(new TextEncoder().encode(body).byteLength) },
      body,
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(request, { ...env, ...vars }, ctx);
    await waitOnExecutionContext(ctx);
    const answer = (await res.json()) as any;
    expect(res.status).toBe(200);
    await mailSettled(b.businessId);
    const rows = await outboxRows(b.businessId);
    const sent = await Promise.all(rows.map(async (r: any) => ({ row: r, raw: (await handedOver(r.message_id))[0]?.raw ?? "" })));
    return { answer, booker, sent };
  }

  async function businessWith(config: Record<string, unknown>, title?: string) {
    const { businessId, key } = await cartBusiness({ notification_emails: ["owner@camp.example"], ...config });
    if (title !== undefined) await env.DB.prepare("UPDATE businesses SET title = ? WHERE id = ?").bind(title, businessId).run();
    return { businessId, key, pkg: await smallPackage(businessId, 5, "Surf Week") };
  }

  it("without a sender of its own, a business's e-mails go from the platform's, under its name, answered to its contact", async () => {
    const title = 'Ondas "Norte" Surf Açores';
    const b = await businessWith({ email_from: null, contact_email: "hola@ondas.example" }, title);
    const { answer, booker, sent } = await bookAt(b);
    expect(answer.confirmation_email).toBe(booker.email);
    expect(sent.map((s) => s.row.status)).toEqual(["sent", "sent"]);
    const confirmation = sent.find((s) => s.row.kind === "booking_confirmation")!;
    expect(decodedHeader(confirmation.raw, "From")).toBe(`${title} <bookings@platform.example>`);
    expect(mailHeader(confirmation.raw, "Reply-To")).toBe("hola@ondas.example");
    expect(mailHeader(confirmation.raw, "Message-ID")).toMatch(/@platform\.example>$/);
    // The business's own notification is answered to the booker, from the same sender.
    const owner = sent.find((s) => s.row.kind === "owner_new_booking")!;
    expect(decodedHeader(owner.raw, "From")).toBe(`${title} <bookings@platform.example>`);
    expect(mailHeader(owner.raw, "Reply-To")).toBe(booker.email);
  });

  it("a name that tries to add a header stays one display name, and replies go to the business's first notification address without a contact", async () => {
    const b = await businessWith({ email_from: null, contact_email: null }, "Camp\r\nBcc: victim@example.com");
    const { sent } = await bookAt(b);
    const confirmation = sent.find((s) => s.row.kind === "booking_confirmation")!;
    const head = confirmation.raw.split("\r\n\r\n")[0];
    expect(head).not.toMatch(/^Bcc:/im);
    expect(decodedHeader(confirmation.raw, "From")).toBe('"Camp Bcc: victim@example.com" <bookings@platform.example>');
    expect(mailHeader(confirmation.raw, "Reply-To")).toBe("owner@camp.example");
  });

  it("a stored sender on a domain the operator did not list is not used: the platform's sends instead", async () => {
    const b = await businessWith({ email_from: "mail@elsewhere.example", contact_email: "hola@elsewhere.example" });
    const { sent } = await bookAt(b);
    for (const s of sent) expect(mailHeader(s.raw, "From")).toMatch(/<bookings@platform\.example>$/);
    // on a listed domain, the business's own
    const own = await businessWith({ email_from: "mail@camp.example" });
    for (const s of (await bookAt(own)).sent) expect(mailHeader(s.raw, "From")).toMatch(/<mail@camp\.example>$/);
  });

  it("with neither a sender of its own nor the platform's, nothing is sent and nothing promised", async () => {
    const b = await businessWith({ email_from: null });
    const { answer, sent } = await bookAt(b, { EMAIL_DEFAULT_FROM: "" });
    expect(answer.confirmation_email).toBeNull();
    expect(sent).toEqual([]);
  });

  it("a business's own sender must be on a listed domain: 422 at email_from, nothing changed", async () => {
    const { businessId } = await cartBusiness({ email_from: "mail@camp.example" });
    const privateKey = await createKey("private", businessId);
    for (const foreign of ["bookings@other-business.example", "mail@sub.camp.example", "bookings@platform.example.evil.test"]) {
      const res = await callJson("/private/settings", { key: privateKey, method: "PATCH", body: { email_from: foreign, brand_color: "#112233" } });
      expect(res.status, foreign).toBe(422);
      expect(res.headers.get("Content-Type")).toContain("application/problem+json");
      expect(res.body.errors).toEqual([expect.objectContaining({ path: "email_from", message: expect.stringContaining("camp.example") })]);
    }
    const stored = await callJson("/private/settings", { key: privateKey });
    expect(stored.body.data).toMatchObject({ email_from: "mail@camp.example", brand_color: "#0a5d7a" });
    const ok = await callJson("/private/settings", { key: privateKey, method: "PATCH", body: { email_from: "Desk@Bluewave.example" } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.email_from).toBe("Desk@Bluewave.example");
  });

  it("the catalog file is held to the same rule", async () => {
    const { businessId } = await cartBusiness({ email_from: "mail@camp.example" });
    const actor = { kind: "cli", id: "t", name: "t" } as const;
    const store = { DB: env.DB, EMAIL_SENDING_DOMAINS: env.EMAIL_SENDING_DOMAINS };
    const file = await exportCatalog(env.DB, businessId);
    const foreign = { ...file.file, settings: { ...file.file.settings, email_from: "bookings@other-business.example" } };
    const refused = await applyCatalog(store, actor, businessId, CatalogFile.parse(foreign), new Date()).catch((e) => e);
    expect(refused).toMatchObject({ status: 422, extra: { errors: [expect.objectContaining({ path: "settings.email_from" })] } });
    expect((await exportCatalog(env.DB, businessId)).file.settings.email_from).toBe("mail@camp.example");
  });
});
