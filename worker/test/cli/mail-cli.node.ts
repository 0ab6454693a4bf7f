/**
 * The mail CLI, as a developer uses it without a network: a real `wrangler dev` on its own state,
 * a booking through the public API, and `npm run --silent mail -- list|show` printing what the
 * local send_email binding was handed, read from the outbox in D1.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { simpleParser } from "mailparser";
import { isoDay, saturdayAfter } from "../../../e2e/bench/seed-scale";
import { startServer, type RunningServer } from "../../scripts/server";
import { npmRun } from "./helpers";

describe("mail CLI", () => {
  let persistTo: string;
  let server: RunningServer;
  let reference = "";
  const at = () => ["--persist-to", persistTo];

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "mail-cli-test-"));
    server = await startServer({ persistTo });
    const key = await npmRun("keys", ["create", "--business", "demo", "--scope", "public", "--name", "mail-cli", ...at()]);
    assert.equal(key.code, 0, key.stderr);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/pub/v2${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.stdout.trim()}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const week = saturdayAfter(new Date().toISOString().slice(0, 10), 28);
    const added = await call("/bookings/add", {
      currency: "EUR",
      guests: [{ first_name: "Lena", last_name: "Mail", gender: "f", birth_date: "1991-03-03", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 202 } }],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const booked = await call(`/carts/${added.body.cart_id}/checkout`, {
      terms_accepted: true,
      customer: { first_name: "Lena", last_name: "Mail", email: "lena.cli@example.com", language_code: "es", phone: "912345678", phone_countrycode: 351 },
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    reference = booked.body.reference;
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("lists the booking's e-mails with their status, and shows the booker's as sent, in Spanish", async () => {
    let listed: any[] = [];
    for (let i = 0; i < 50; i++) {
      const ran = await npmRun("mail", ["list", "--business", "demo", "--json", ...at()]);
      assert.equal(ran.code, 0, ran.stderr);
      listed = JSON.parse(ran.stdout);
      if (listed.length === 2 && listed.every((e) => e.status === "sent")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(listed.map((e) => [e.kind, e.recipient, e.status]).sort(), [
      ["booking_confirmation", "lena.cli@example.com", "sent"],
      ["owner_new_booking", "bookings@bluewave.example", "sent"],
    ]);
    const confirmation = listed.find((e) => e.kind === "booking_confirmation");
    const table = await npmRun("mail", ["list", ...at()]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`${confirmation.id}\\s+sent\\s+demo\\s+booking_confirmation -> lena.cli@example.com`));
    assert.match(table.stdout, new RegExp(`Tu reserva ${reference} en Blue Wave Surf & Yoga Camp está confirmada`));

    // a reader that stops at once (`| true`, as `| head` does after its lines): no EPIPE stack, exit 0
    const piped = spawnSync("sh", ["-c", `npm run --silent mail -- show ${confirmation.id} --raw --persist-to '${persistTo}' | true`], { encoding: "utf8" });
    assert.doesNotMatch(piped.stderr, /EPIPE|Error/);
    const shown = await npmRun("mail", ["show", confirmation.id, ...at()]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^To: lena\.cli@example\.com$/m);
    assert.match(shown.stdout, /^Content-Language: es$/m);
    assert.match(shown.stdout, new RegExp(`Referencia de la reserva: ${reference}`));
    // --raw is the MIME message itself, as the binding was handed it
    const raw = await npmRun("mail", ["show", confirmation.id, "--raw", ...at()]);
    const parsed = await simpleParser(raw.stdout);
    assert.equal(parsed.subject, `Tu reserva ${reference} en Blue Wave Surf & Yoga Camp está confirmada`);
    const html = await npmRun("mail", ["show", confirmation.id, "--html", ...at()]);
    assert.match(html.stdout, /^<!doctype html>/);
  });

  it("refuses what it cannot do, with a usage message", async () => {
    const none = await npmRun("mail", ["show", "eml_nope", ...at()]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /No e-mail "eml_nope"/);
    const bad = await npmRun("mail", ["list", "--status", "lost", ...at()]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --status/);
  });
});
