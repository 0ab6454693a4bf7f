/**
 * The e-mails as a mail client reads them: each template in each language, built into MIME by
 * domain/email/mime.ts and parsed back by mailparser (an independent MIME parser).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simpleParser } from "mailparser";
import { BOOKING_TEMPLATES, type BookingMail } from "../../src/domain/email/booking";
import { buildMime, encodeWords } from "../../src/domain/email/mime";
import { MAIL_LANGUAGES } from "../../src/domain/email/strings";
import { textOn } from "../../src/domain/email/layout";
import { staffInvitation, staffPasswordReset } from "../../src/domain/email/staff";

const booking = (language: BookingMail["language"]): BookingMail => ({
  brand: { name: "Blue Wave <Surf> & \"Yoga\" Camp", color: "#0a5d7a", contactEmail: "hello@bluewave.example", contactPhone: "+351 261 000 000" },
  language,
  reference: "2026-00042",
  currency: "EUR",
  digits: 2,
  total: 123450,
  start: "2026-12-05",
  end: "2026-12-12",
  booker: { firstName: "Jürgen", name: "Jürgen Müller", email: "jurgen@example.com", phone: "+351 912345678" },
  guests: [
    {
      name: "Jürgen <script>alert(1)</script> Müller",
      stay: "Surf- & Yoga-Woche",
      start: "2026-12-05",
      end: "2026-12-12",
      stayPrice: 70000,
      room: "Ozean-Schlafsaal (Männer)",
      roomPrice: 31950,
      privateRoom: true,
      srsPrice: 10500,
      extras: [
        { title: "Yogastunde", qty: 1, dates: ["2026-12-07 18:00:00"], price: 1500 },
        { title: "Surfunterricht", qty: 1, dates: ["2026-12-06"], price: 0 },
      ],
      total: 123450,
    },
  ],
  terms: "1. Kostenlose Stornierung bis 30 Tage vor der Anreise.",
  newsletter: true,
  location: "Ericeira",
  legal: { name: "Blue Wave Adventures Lda.", address: "Rua do Mar 1, 2655-320 Ericeira, Portugal" },
  channel: { kind: "widget" },
  calendar: true,
});

describe("MIME", () => {
  it("headers in UTF-8 and long subjects come back exactly; both parts decode to what was written", async () => {
    const subject = "Ihre Buchung 2026-00042 bei Blue Wave Surf & Yoga Camp ist bestätigt — Grüße aus Ericeira, señor Ñúñez";
    const raw = buildMime({
      from: { email: "bookings@bluewave.example", name: "Blue Wave \"Surf\" Camp" },
      to: "jurgen@example.com",
      replyTo: "hello@bluewave.example",
      subject,
      messageId: "<booking-confirmation.x.1@bluewave.example>",
      date: new Date("2026-11-24T10:00:00Z"),
      language: "de",
      text: "Grüße\nZeile 2: 1.234,50 €\n",
      html: "<p>Grüße – 1.234,50 €</p>",
      headers: { "X-Booking-Email-Id": "eml_1" },
    });
    assert.ok(raw.split("\r\n").every((line) => line.length <= 998), "no line longer than RFC 5322 allows");
    assert.ok(!/[^\x00-\x7f]/.test(raw), "the message itself is 7-bit ASCII");
    const mail = await simpleParser(raw);
    assert.equal(mail.subject, subject);
    assert.deepEqual(mail.from?.value[0], { address: "bookings@bluewave.example", name: 'Blue Wave "Surf" Camp' });
    assert.equal(mail.messageId, "<booking-confirmation.x.1@bluewave.example>");
    assert.equal(mail.headers.get("content-language"), "de");
    assert.equal(mail.headers.get("auto-submitted"), "auto-generated");
    assert.equal(mail.headers.get("x-booking-email-id"), "eml_1");
    assert.equal((mail.replyTo?.value[0] as { address: string }).address, "hello@bluewave.example");
    assert.equal(mail.text, "Grüße\nZeile 2: 1.234,50 €\n");
    assert.equal(mail.html, "<p>Grüße – 1.234,50 €</p>");
    assert.equal(mail.date?.toISOString(), "2026-11-24T10:00:00.000Z");
  });

  it("encoded words never split a character and stay within 75 characters", () => {
    const words = encodeWords("ü".repeat(100)).split("\r\n ");
    assert.ok(words.length > 1);
    for (const w of words) assert.ok(w.length <= 75, w);
    assert.equal(encodeWords("plain ASCII"), "plain ASCII");
  });

  it("no header can be smuggled in through an address or an extra header", () => {
    const base = { from: { email: "a@b.example" }, subject: "s", messageId: "<x@b.example>", date: new Date(), language: "en", text: "t", html: "h" };
    assert.throws(() => buildMime({ ...base, to: "x@example.com\r\nBcc: all@example.com" }));
    assert.throws(() => buildMime({ ...base, to: "x@example.com", headers: { "X-A": "1\r\nBcc: all@example.com" } }));
    const mail = buildMime({ ...base, to: "x@example.com", subject: "two\r\nBcc: all@example.com" });
    assert.ok(!/^Bcc:/m.test(mail));
  });
});

describe("the booking e-mails", () => {
  for (const language of MAIL_LANGUAGES) {
    for (const [kind, template] of Object.entries(BOOKING_TEMPLATES)) {
      it(`${kind} in ${language}: subject and text in that language, HTML escaped, nothing remote`, async () => {
        const m = booking(language);
        const composed = template(m);
        const mail = await simpleParser(
          buildMime({ from: { email: "bookings@bluewave.example", name: m.brand.name }, to: "jurgen@example.com", subject: composed.subject, messageId: `<${kind}@x.example>`, date: new Date(), language, text: composed.text, html: composed.html }),
        );
        assert.equal(mail.subject, composed.subject);
        assert.ok(mail.subject?.includes("2026-00042"));
        assert.ok(mail.text?.includes("2026-00042"));
        assert.ok(mail.text?.includes("Ozean-Schlafsaal (Männer)"));
        assert.equal(mail.html, composed.html);
        assert.match(composed.html, new RegExp(`<html lang="${language}">`));
        assert.match(composed.html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
        assert.ok(!composed.html.includes("<script>"), "a guest's name is escaped");
        assert.ok(composed.html.includes("&lt;script&gt;"));
        assert.ok(!/<img|\bsrc=|url\(|https?:\/\//i.test(composed.html), "nothing remote");
        assert.ok(composed.html.includes("background:#0a5d7a"), "the brand colour");
        if (kind === "booking_confirmation" || kind === "owner_new_booking") {
          const total = new Intl.NumberFormat(language, { style: "currency", currency: "EUR" }).format(1234.5);
          assert.ok(mail.text?.includes(total), `${total} in ${mail.text}`);
        }
      });
    }
  }

  it("texts in each language differ, and the brand colour's text stays readable", () => {
    const subjects = MAIL_LANGUAGES.map((l) => BOOKING_TEMPLATES.booking_confirmation(booking(l)).subject);
    assert.equal(new Set(subjects).size, MAIL_LANGUAGES.length);
    assert.ok(BOOKING_TEMPLATES.booking_confirmation(booking("es")).text.includes("No se ha cobrado nada en línea"));
    const said: Record<"pt" | "fr" | "it" | "nl", string[]> = {
      pt: [`A sua reserva 2026-00042 em Blue Wave <Surf> & "Yoga" Camp está confirmada`, "Nada foi cobrado online"],
      fr: [`Votre réservation 2026-00042 chez Blue Wave <Surf> & "Yoga" Camp est confirmée`, "Rien n’a été débité en ligne"],
      it: [`La Sua prenotazione 2026-00042 presso Blue Wave <Surf> & "Yoga" Camp è confermata`, "Non è stato addebitato nulla online"],
      nl: [`Uw boeking 2026-00042 bij Blue Wave <Surf> & "Yoga" Camp is bevestigd`, "Er is online niets afgeschreven"],
    };
    for (const [language, [subject, next]] of Object.entries(said)) {
      const mail = BOOKING_TEMPLATES.booking_confirmation(booking(language as keyof typeof said));
      assert.equal(mail.subject, subject);
      assert.ok(mail.text.includes(next), `${language}: ${mail.text}`);
    }
    assert.equal(textOn("#0a5d7a"), "#ffffff");
    assert.equal(textOn("#ffd84d"), "#111111");
  });
});

describe("the back-office invitation", () => {
  for (const language of MAIL_LANGUAGES) {
    it(`in ${language}: names the business, the inviter and the role, and carries the link in text and HTML`, async () => {
      const link = "https://book.example/admin/invite/AbC_123-xyzXYZ0987654321";
      const m = staffInvitation({ brand: { name: "Blue Wave", color: "#ffd84d", contactEmail: null, contactPhone: null }, language, inviter: "ana@bluewave.example", role: "manager", link, expiresAt: "2026-11-27T10:00:00.000Z" });
      const mail = await simpleParser(buildMime({ from: { email: "b@bluewave.example", name: "Blue Wave" }, to: "new@example.com", subject: m.subject, messageId: "<i@x.example>", date: new Date(), language, text: m.text, html: m.html }));
      assert.ok(mail.subject?.includes("Blue Wave"));
      assert.ok(mail.text?.includes(link) && mail.text.includes("ana@bluewave.example") && mail.text.includes("2026-11-27 10:00"));
      assert.ok(m.html.includes(`href="${link}"`));
      assert.ok(m.html.includes("color:#111111"), "dark text on a light brand colour");
    });
  }
});


describe("the back-office password reset", () => {
  const subjects = {
    en: "Reset your password for Blue Wave",
    de: "Passwort für Blue Wave zurücksetzen",
    es: "Restablece tu contraseña de Blue Wave",
    pt: "Redefinir a sua palavra-passe de Blue Wave",
    fr: "Réinitialisez votre mot de passe pour Blue Wave",
    it: "Reimposti la Sua password per Blue Wave",
    nl: "Uw wachtwoord voor Blue Wave opnieuw instellen",
  };
  for (const language of MAIL_LANGUAGES) {
    it(`in ${language}: names the business and the account, carries the one-time link and its expiry in text and HTML`, async () => {
      const link = "https://book.example/admin/blue-wave/reset/AbC_123-xyzXYZ0987654321";
      const m = staffPasswordReset({ brand: { name: "Blue Wave", color: "#0a5d7a", contactEmail: null, contactPhone: null }, language, email: "ana@bluewave.example", link, expiresAt: "2026-11-27T10:00:00.000Z" });
      const mail = await simpleParser(buildMime({ from: { email: "b@bluewave.example", name: "Blue Wave" }, to: "ana@bluewave.example", subject: m.subject, messageId: "<r@x.example>", date: new Date(), language, text: m.text, html: m.html }));
      assert.equal(mail.subject, subjects[language]);
      assert.ok(mail.text?.includes(link) && mail.text.includes("ana@bluewave.example") && mail.text.includes("2026-11-27 10:00"));
      assert.ok(m.html.includes(`href="${link}"`));
      assert.ok(m.html.includes("color:#ffffff"), "white text on a dark brand colour");
    });
  }
});
