/**
 * The back office's doors (issue 20): sign-in with one answer for any failure, rate-limited per
 * account and per address; server-side sessions (idle expiry, sign-out, removal end them);
 * cross-site form posts refused; another business's staff opens nothing; roles refused with a
 * 403 page that changes nothing; the pages' CSP.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ACCOUNT_ATTEMPTS, ADDRESS_ATTEMPTS, inviteStaff } from "../src/manage/staff";
import { hashPassword, verifyPassword, PBKDF2_ITERATIONS } from "../src/lib/password";
import { browser, createStaff, PASSWORD, signedIn, staffEmail } from "./admin-fixtures";
import { createBusiness, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

describe("passwords", () => {
  it("are PBKDF2-SHA256 with 100,000 iterations and a salt of their own", async () => {
    const a = await hashPassword("same password!");
    const b = await hashPassword("same password!");
    expect(a).toMatch(new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$`));
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password!", a)).toBe(true);
    expect(await verifyPassword("same password?", a)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
  });
});

describe("signing in", () => {
  it("opens a server-side session behind an HttpOnly SameSite cookie, and Today with it", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const b = browser();
    const res = await b.post("/admin/demo/sign-in", { email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/admin/demo/today");
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const today = await b.get("/admin/demo/today");
    expect(today.status).toBe(200);
    expect(await today.text()).toContain("Arrivals");
  });

  it("over HTTPS, sets a Secure cookie for this host only (__Host-)", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const origin = "https://bookings.example.com";
    const res = await fetchWorker(`${origin}/admin/demo/sign-in`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "CF-Connecting-IP": "192.0.2.44" },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^__Host-bo_session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    const today = await fetchWorker(`${origin}/admin/demo/today`, { headers: { Cookie: cookie.split(";")[0] } });
    expect(today.status).toBe(200);
    // The loopback name is not read over HTTPS.
    const plain = await fetchWorker(`${origin}/admin/demo/today`, { headers: { Cookie: cookie.split(";")[0].replace("__Host-", "") } });
    expect(plain.status).toBe(303);
  });

  it("answers a wrong e-mail and a wrong password alike", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "manager");
    const wrongPassword = await browser("203.0.113.10").post("/admin/demo/sign-in", { email, password: "not the password" });
    const wrongEmail = await browser("203.0.113.11").post("/admin/demo/sign-in", { email: staffEmail("nobody"), password: PASSWORD });
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    const [a, b] = [message(await wrongPassword.text()), message(await wrongEmail.text())];
    expect(a).toBe("The e-mail or the password is wrong.");
    expect(b).toBe(a);
    expect(wrongPassword.headers.get("Set-Cookie")).toBeNull();
  });

  it("is rate-limited per account: past the limit even the right password is refused, with Retry-After", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "front_desk");
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) {
      const res = await browser(`203.0.113.${20 + i}`).post("/admin/demo/sign-in", { email, password: `wrong ${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await browser("203.0.113.40").post("/admin/demo/sign-in", { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(blocked.headers.get("Set-Cookie")).toBeNull();
    expect(await blocked.text()).toContain("Too many sign-in attempts");
  });

  it("is rate-limited per address, whichever accounts it tries", async () => {
    const address = "203.0.113.99";
    for (let i = 0; i < ADDRESS_ATTEMPTS; i++) {
      const res = await browser(address).post("/admin/demo/sign-in", { email: staffEmail("guess"), password: "wrong wrong" });
      expect(res.status).toBe(401);
    }
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    expect((await browser(address).post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(429);
    // Another address signs in to the same account.
    expect((await browser("203.0.113.100").post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(303);
  });

  it("accepts an invitation once: the link sets the password, then is spent", async () => {
    const email = staffEmail("invitee");
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email, role: "front_desk" }, new Date());
    const b = browser();
    const form = await b.get(`/admin/invite/${invite.token}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(email);
    const tooShort = await b.post(`/admin/invite/${invite.token}`, { password: "short", confirm: "short" });
    expect(tooShort.status).toBe(422);
    const ok = await b.post(`/admin/invite/${invite.token}`, { password: PASSWORD, confirm: PASSWORD });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("Location")).toContain("/admin/demo/sign-in?accepted=1");
    expect((await b.get(`/admin/invite/${invite.token}`)).status).toBe(404);
    expect((await browser().post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(303);
  });

  it("refuses an expired invitation", async () => {
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email: staffEmail("late"), role: "owner" }, new Date(Date.now() - 73 * 3_600_000));
    const res = await browser().get(`/admin/invite/${invite.token}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("expired");
  });
});

describe("sessions", () => {
  it("end at sign-out", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const b = await signedIn("demo", email);
    const stolen = b.cookie!;
    expect((await b.post("/admin/demo/sign-out", {})).status).toBe(303);
    const after = await browser().get("/admin/demo/today", { Cookie: stolen });
    expect(after.status).toBe(303);
    expect(after.headers.get("Location")).toMatch(/^\/admin\/demo\/sign-in\?next=/);
  });

  it("expire when idle for an hour", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const b = await signedIn("demo", email);
    const later = new Date(Date.now() + 61 * 60_000).toISOString();
    const res = await b.get("/admin/demo/today", { "X-Test-Now": later });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("expired=1");
  });

  it("end at once when an owner removes the user", async () => {
    const owner = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const desk = await createStaff(DEMO_BUSINESS_ID, "front_desk");
    const deskBrowser = await signedIn("demo", desk.email);
    expect((await deskBrowser.get("/admin/demo/today")).status).toBe(200);
    expect((await owner.post(`/admin/demo/staff/${desk.staffId}/remove`, {})).status).toBe(303);
    expect((await deskBrowser.get("/admin/demo/today")).status).toBe(303);
    expect((await browser().post("/admin/demo/sign-in", { email: desk.email, password: PASSWORD })).status).toBe(401);
  });

  it("end at a password change, every one of the user's but this browser's new one", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "manager");
    const here = await signedIn("demo", email);
    const elsewhere = await signedIn("demo", email, "198.51.100.99");
    const wrong = await here.post("/admin/demo/account/password", { current: "not it at all", password: "a brand new password" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("is not your current password");
    const changed = await here.post("/admin/demo/account/password", { current: PASSWORD, password: "a brand new password" });
    expect(changed.status).toBe(303);
    expect((await elsewhere.get("/admin/demo/today")).status).toBe(303);
    expect((await here.get("/admin/demo/today")).status).toBe(200);
    expect((await browser("198.51.100.98").post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(401);
    expect((await browser("198.51.100.97").post("/admin/demo/sign-in", { email, password: "a brand new password" })).status).toBe(303);
  });

  it("of another business's staff open nothing here", async () => {
    const otherId = await createBusiness(`other-${crypto.randomUUID().slice(0, 8)}`);
    const other = await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(otherId).first<{ slug: string }>();
    const { email } = await createStaff(otherId, "owner");
    const b = await signedIn(other!.slug, email);
    expect((await b.get(`/admin/${other!.slug}/today`)).status).toBe(200);
    const here = await b.get("/admin/demo/bookings");
    expect(here.status).toBe(303);
    expect(here.headers.get("Location")).toMatch(/^\/admin\/demo\/sign-in/);
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("booker"), first_name: "Ana" } });
    const post = await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" });
    expect(post.status).toBe(403);
    const row = await env.DB.prepare("SELECT status FROM bookings WHERE id = ?").bind(bookingId).first<{ status: string }>();
    expect(row!.status).toBe("confirmed");
  });
});

describe("forms that change something", () => {
  it("refuse a cross-site post, and one without the session's token; nothing changes", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("booker"), first_name: "Ben" } });
    const crossSite = await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const noToken = await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes", _csrf: "forged" });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain("Nothing was changed");
    const row = await env.DB.prepare("SELECT status FROM bookings WHERE id = ?").bind(bookingId).first<{ status: string }>();
    expect(row!.status).toBe("confirmed");
    // The same form, same-origin and with the token, does it.
    expect((await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" })).status).toBe(303);
    const cancelled = await env.DB.prepare("SELECT status FROM bookings WHERE id = ?").bind(bookingId).first<{ status: string }>();
    expect(cancelled!.status).toBe("cancelled");
    const audit = await env.DB.prepare("SELECT actor_kind, actor_name, action FROM audit_log WHERE entity = 'booking' AND entity_id = ?").bind(bookingId).first();
    expect(audit).toMatchObject({ actor_kind: "staff", action: "cancelled" });
  });

  it("refuse a cross-site sign-in post", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const res = await browser().post("/admin/demo/sign-in", { email, password: PASSWORD }, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("roles", () => {
  it("refuse front desk the owner's and manager's screens with a 403 page, and change nothing", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    for (const path of ["/admin/demo/developers", "/admin/demo/staff", "/admin/demo/audit"]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(403);
      expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
      expect(await res.text()).toContain("Your role does not allow this");
    }
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM inventory WHERE business_id = ?").bind(DEMO_BUSINESS_ID).first<{ n: number }>();
    const block = await b.post("/admin/demo/calendar/blocks", { product_id: "101", from: "2027-03-01", to: "2027-03-07", action: "block" });
    expect(block.status).toBe(403);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM inventory WHERE business_id = ?").bind(DEMO_BUSINESS_ID).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    const keys = await b.post("/admin/demo/developers/keys", { name: "sneaky", scope: "private" });
    expect(keys.status).toBe(403);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'sneaky'").first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("keep the business's last owner", async () => {
    const otherId = await createBusiness(`solo-${crypto.randomUUID().slice(0, 8)}`);
    const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(otherId).first<{ slug: string }>())!.slug;
    const owner = await createStaff(otherId, "owner");
    const b = await signedIn(slug, owner.email);
    const res = await b.post(`/admin/${slug}/staff/${owner.staffId}/role`, { role: "manager" });
    expect(res.status).toBe(409);
    expect((await env.DB.prepare("SELECT role FROM staff_users WHERE id = ?").bind(owner.staffId).first<{ role: string }>())!.role).toBe("owner");
  });
});

describe("pages", () => {
  it("carry a strict CSP (no inline script), and work in German and Spanish", async () => {
    const res = await browser().get("/admin/demo/sign-in", { "Accept-Language": "de-DE,de;q=0.9" });
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain("Bei Blue Wave Surf &amp; Yoga Camp anmelden");
    const es = await browser().get("/admin/demo/sign-in?lang=es");
    expect(await es.text()).toContain("Contraseña");
  });

  it.each([
    ["pt", "", { "Accept-Language": "pt-PT,pt;q=0.9,en;q=0.5" }, "Entrar em Blue Wave Surf &amp; Yoga Camp", "Palavra-passe"],
    ["fr", "?lang=fr", { "Accept-Language": "de" }, "Connexion à Blue Wave Surf &amp; Yoga Camp", "Mot de passe"],
    ["it", "", { "Accept-Language": "it-IT" }, "Accesso a Blue Wave Surf &amp; Yoga Camp", "Accedi"],
    ["nl", "?lang=nl", {}, "Inloggen bij Blue Wave Surf &amp; Yoga Camp", "Wachtwoord"],
  ])("sign in in %s, asked by the address or the browser", async (language, query, headers, title, word) => {
    const page = await (await browser().get(`/admin/demo/sign-in${query}`, headers)).text();
    expect(page).toContain(`<html lang="${language}">`);
    expect(page).toContain(title);
    expect(page).toContain(word);
  });

  it("offer every language of the back office on the sign-in page, each named in itself", async () => {
    const page = await (await browser().get("/admin/demo/sign-in")).text();
    const offered = [...page.matchAll(/<a href="\/admin\/demo\/sign-in\?lang=(\w+)" lang="\w+" hreflang="\w+">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(offered).toEqual([
      ["en", "English"],
      ["de", "Deutsch"],
      ["es", "Español"],
      ["pt", "Português"],
      ["fr", "Français"],
      ["it", "Italiano"],
      ["nl", "Nederlands"],
    ]);
  });

  it.each([
    ["pt", "", { "Accept-Language": "pt" }, ["Chegadas", "Terminar sessão", "Hóspedes"]],
    ["fr", "?lang=fr", { "Accept-Language": "en" }, ["Arrivées", "Se déconnecter", "Clients"]],
    ["it", "?lang=it", {}, ["Arrivi", "Esci", "Ospiti"]],
    ["nl", "", { "Accept-Language": "nl-BE,nl;q=0.9" }, ["Aankomsten", "Uitloggen", "Gasten"]],
  ])("show Today in %s to a user who chose no language", async (language, query, headers, words) => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const page = await (await b.get(`/admin/demo/today${query}`, headers)).text();
    expect(page).toContain(`<html lang="${language}">`);
    for (const word of words) expect(page).toContain(word);
  });

  it("show the Guests list and a refused form's errors in the language chosen in the account (Dutch)", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    expect((await b.post("/admin/demo/account/language", { language: "nl" })).status).toBe(303);
    const guests = await (await b.get("/admin/demo/guests", { "Accept-Language": "de" })).text();
    expect(guests).toContain('<html lang="nl">');
    expect(guests).toContain("CSV van dit filter downloaden");
    const account = await (await b.get("/admin/demo/account")).text();
    expect(account).toContain('<option value="nl" selected');
    // A refused form: nothing is saved, and the errors are in Dutch, zod's wording replaced.
    const refused = await b.post("/admin/demo/settings/limits", { cart_lifetime_seconds: "900", max_items_per_cart: "veel" });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain("Corrigeer de hieronder gemarkeerde velden.");
    expect(html).toContain("Voer een getal in.");
  });

  it("speak the language the user chose, whatever the browser asks", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    expect((await b.post("/admin/demo/account/language", { language: "es" })).status).toBe(303);
    const page = await (await b.get("/admin/demo/today", { "Accept-Language": "de" })).text();
    expect(page).toContain('<html lang="es">');
    expect(page).toContain("Llegadas");
  });

  it("answer an unknown business and an unknown page with HTML 404 pages", async () => {
    const res = await browser().get("/admin/no-such-business/sign-in");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
  });
});
