/**
 * Issue 28: a confirmation a guest can act on, and a notification the owner can answer. Read from
 * the real messages handed to the send_email binding; the calendar file is read back by ical.js, a
 * maintained iCalendar parser nobody here wrote.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { customer } from "./carts-fixtures";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { handedOver, mailHeader, mailSettled, outboxRows, textPart } from "./mail-fixtures";
import { createStaff, signedIn } from "./admin-fixtures";

const d = (n: number) => addDays(MAY_SAT, n);

/** The decoded attachment of `type` in a message this service built. */
function attachment(raw: string, type: string): string | null {
  const m = new RegExp(`Content-Type: ${type}[^\\r\\n]*\\r\\nContent-Disposition: attachment; filename="([^"]+)"\\r\\nContent-Transfer-Encoding: base64\\r\\n\\r\\n([A-Za-z0-9+/=\\r\\n]+?)\\r\\n--`).exec(raw);
  return m ? new TextDecoder().decode(Uint8Array.from(atob(m[2].replace(/\r\n/g, "")), (c) => c.charCodeAt(0))) : null;
}

async function bookTheWeek() {
  const keyName = `Partner site ${crypto.randomUUID().slice(0, 6)}`;
  const key = await createKey("public", DEMO_BUSINESS_ID, keyName);
  const week = { id: 101, start_date: MAY_SAT, end_date: d(7) };
  const cart = await callJson("/api/pub/v2/bookings/add", {
    key,
    body: {
      currency: "EUR",
      guests: [
        {
          first_name: "Ana",
          last_name: "Kalender",
          gender: "f",
          birth_date: "1990-05-01",
          // the twin room to herself (a single room supplement) and yoga at 08:00 and 18:00
          package: { ...week, accommodation_id: 203, srs: true, items: [{ package_item_id: 1002, dates: [`${d(1)} 08:00:00`, `${d(2)} 18:00:00`] }] },
        },
      ],
    },
  });
  expect(cart.status).toBe(201);
  const booker = customer({ language_code: "de", email: `ana-${crypto.randomUUID().slice(0, 8)}@example.com` });
  const res = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: booker } });
  expect(res.status).toBe(200);
  await mailSettled(DEMO_BUSINESS_ID);
  const rows = (await outboxRows(DEMO_BUSINESS_ID)).filter((e: any) => e.booking_id === res.body.id);
  const raw = async (kind: string) => (await handedOver(rows.find((e: any) => e.kind === kind).message_id))[0].raw;
  return { booking: res.body, booker, keyName, confirmation: await raw("booking_confirmation"), owner: await raw("owner_new_booking") };
}

describe("the booker's confirmation", () => {
  it("prices every line, names the place, the seller and its address, and answers to the business", async () => {
    const privateKey = await createKey("private");
    const address = "Rua do Mar 1, 2655-320 Ericeira";
    expect((await callJson("/private/settings", { key: privateKey, method: "PATCH", body: { company_address: address } })).status).toBe(200);
    const { confirmation, booking } = await bookTheWeek();
    expect(mailHeader(confirmation, "Reply-To")).toBe("hello@bluewave.example");
    const text = textPart(confirmation);
    const lines = booking.guests[0].items as { product_id: number; price: number }[];
    const euros = (n: number) => new Intl.NumberFormat("de", { style: "currency", currency: "EUR", minimumFractionDigits: 2 }).format(n);
    // the package, the room and its supplement, and the yoga, each with its price as booked
    for (const product of [101, 203]) {
      const line = lines.find((l) => l.product_id === product && l.price > 0)!;
      expect(text, `product ${product}`).toContain(euros(line.price));
    }
    expect(text).toContain("Einzelzimmerzuschlag");
    expect(text).toMatch(/Yoga[^\n]*08:00[^\n]*18:00/);
    expect(text).toContain("Ort: Ericeira, Portugal");
    expect(text).toContain(`Blue Wave Adventures Lda. · ${address}`);
  });

  it("carries the stay and the timeslots as a calendar file that ical.js reads back with the right dates", async () => {
    const { confirmation, booking } = await bookTheWeek();
    expect(confirmation).toMatch(/Content-Type: multipart\/mixed/);
    const ics = attachment(confirmation, "text/calendar");
    expect(ics).not.toBeNull();
    const calendar = new ICAL.Component(ICAL.parse(ics!));
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const stay = events.find((e) => e.startDate.isDate)!;
    expect(stay.startDate.toString()).toBe(MAY_SAT);
    // exclusive end: the check-out day
    expect(stay.endDate.toString()).toBe(d(7));
    expect(stay.location).toBe("Ericeira, Portugal");
    const slots = events.filter((e) => !e.startDate.isDate).map((e) => e.startDate.toString()).sort();
    expect(slots).toEqual([`${d(1)}T08:00:00`, `${d(2)}T18:00:00`]);
    // floating local times: the class's hour wherever the guest's phone is
    expect(events.filter((e) => !e.startDate.isDate).every((e) => e.startDate.zone?.tzid === "floating")).toBe(true);
    for (const e of events) {
      expect(e.uid).toContain(booking.id);
      expect(e.component.getFirstPropertyValue("dtstamp")).toBeTruthy();
    }
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  });
});

describe("the owner's notification", () => {
  it("is answered to the booker, names the channel and the key, and does not tell the business to reply to itself", async () => {
    const { owner, booker, keyName } = await bookTheWeek();
    expect(mailHeader(owner, "Reply-To")).toBe(booker.email);
    const text = textPart(owner);
    expect(text).toContain(`booked through the API, with the key \u201c${keyName}\u201d`);
    expect(text).not.toContain("Reply to this e-mail to reach");
    expect(text).toContain("A reply goes to the booker.");
    expect(attachment(owner, "text/calendar")).toBeNull();
  });
});

describe("the legal name and address", () => {
  it("are set by the owner in Settings and sign the next confirmation", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const owner = await signedIn("demo", email);
    const saved = await owner.post("/admin/demo/settings/email", {
      email_from: "bookings@bluewave.example",
      contact_email: "hello@bluewave.example",
      contact_phone: "",
      company_name: "Ondas Azuis Unipessoal Lda.",
      company_address: "Largo dos Navegantes 3, 2655-319 Ericeira",
      brand_color: "#0a5d7a",
      notification_emails: "bookings@bluewave.example",
    });
    expect(saved.status).toBe(303);
    const privateKey = await createKey("private");
    const settings = await callJson("/private/settings", { key: privateKey });
    expect(settings.body.data).toMatchObject({ company_name: "Ondas Azuis Unipessoal Lda.", company_address: "Largo dos Navegantes 3, 2655-319 Ericeira" });
    const { confirmation } = await bookTheWeek();
    expect(textPart(confirmation)).toContain("Ondas Azuis Unipessoal Lda. · Largo dos Navegantes 3, 2655-319 Ericeira");
  });
});
