/**
 * Issue 28, secrets and accounts: what the service writes down or sends about a link's secret.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { inviteStaff, PAIR_ATTEMPTS, SIGN_IN_ALERT_AT } from "../src/manage/staff";
import { browser, createStaff, PASSWORD, signedIn, staffEmail } from "./admin-fixtures";
import { DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { mailStub } from "../src/db/emails";
import { requestPasswordReset } from "../src/manage/password-reset";
import { platformMail } from "../src/domain/email/sender";

/** The request log lines written while `run` runs. */
async function logLines(run: () => Promise<void>): Promise<string[]> {
  const log = vi.spyOn(console, "log");
  try {
    await run();
    return log.mock.calls.map((args) => String(args[0]));
  } finally {
    log.mockRestore();
  }
}

describe("the request log", () => {
  it("never holds an invitation's token: the path is logged as the route is written", async () => {
    const email = staffEmail("logged");
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email, role: "front_desk" }, new Date());
    const b = browser();
    const lines = await logLines(async () => {
      expect((await b.get(`/admin/invite/${invite.token}`)).status).toBe(200);
      expect((await b.post(`/admin/invite/${invite.token}`, { password: PASSWORD, confirm: PASSWORD })).status).toBe(303);
      // A spent link, and one that never was, are logged the same way.
      expect((await b.get(`/admin/invite/${invite.token}`)).status).toBe(404);
    });
    const requests = lines.filter((l) => l.includes('"request_id"'));
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(lines.join("\n")).not.toContain(invite.token);
    expect(requests.filter((l) => JSON.parse(l).path === "/admin/invite/:token").length).toBe(3);
  });

  it("never holds a password reset's token", async () => {
    const token = "A".repeat(20) + crypto.randomUUID().replaceAll("-", "");
    const lines = await logLines(async () => {
      expect((await browser().get(`/admin/demo/reset/${token}`)).status).toBe(404);
    });
    expect(lines.join("\n")).not.toContain(token);
    expect(lines.some((l) => l.includes('"path":"/admin/demo/reset/:token"'))).toBe(true);
  });
});

describe("a new password (NIST SP 800-63B)", () => {
  it("is refused when it is common, repetitive, a run, only spaces or the user's own address, and the link stays usable", async () => {
    const email = staffEmail("marta.lopes");
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email, role: "front_desk" }, new Date());
    const b = browser();
    const local = email.split("@")[0];
    for (const password of [" ".repeat(12), "aaaaaaaaaa", "abcabcabcabc", "1234567890", "qwertyuiop", "iloveyou12", "Password123", `${local}1`]) {
      const res = await b.post(`/admin/invite/${invite.token}`, { password, confirm: password });
      expect(res.status, JSON.stringify(password)).toBe(422);
    }
    // No composition rule: a long phrase of plain lower-case words is welcome.
    const ok = await b.post(`/admin/invite/${invite.token}`, { password: "surf the morning glass", confirm: "surf the morning glass" });
    expect(ok.status).toBe(303);
  });
});

describe("signing in when a stranger knows the owner's e-mail", () => {
  it("locks out only the stranger's address: the owner still signs in from theirs", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const stranger = "198.51.100.66";
    for (let i = 0; i < PAIR_ATTEMPTS; i++) expect((await browser(stranger).post("/admin/demo/sign-in", { email, password: `guess number ${i}` })).status).toBe(401);
    expect((await browser(stranger).post("/admin/demo/sign-in", { email, password: "guess number 99" })).status).toBe(429);
    expect((await browser("192.0.2.10").post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(303);
  });

  it("tells the account's user by e-mail, once, when it sees a burst of failures", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "manager");
    const alerts = () => env.DB.prepare("SELECT recipient, params FROM emails WHERE kind = 'staff_sign_in_alert' AND recipient = ?").bind(email).all<{ recipient: string; params: string }>();
    for (let i = 0; i < SIGN_IN_ALERT_AT - 1; i++) await browser(`203.0.113.${120 + i}`).post("/admin/demo/sign-in", { email, password: `wrong ${i}` });
    expect((await alerts()).results).toHaveLength(0);
    for (let i = 0; i < 5; i++) await browser(`203.0.113.${140 + i}`).post("/admin/demo/sign-in", { email, password: `wrong again ${i}` });
    const sent = (await alerts()).results;
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].params)).toMatchObject({ attempts: SIGN_IN_ALERT_AT });
    // It is composed and handed to the binding in the business's language.
    await mailStub(env, DEMO_BUSINESS_ID).kick(DEMO_BUSINESS_ID);
    await mailStub(env, DEMO_BUSINESS_ID).idle();
    const row = await env.DB.prepare("SELECT status, subject FROM emails WHERE kind = 'staff_sign_in_alert' AND recipient = ?").bind(email).first<{ status: string; subject: string }>();
    expect(row).toEqual({ status: "sent", subject: "Failed sign-ins to your account at Blue Wave Surf & Yoga Camp" });
    // An address nobody knows is not anyone's account: no e-mail goes anywhere.
    for (let i = 0; i < SIGN_IN_ALERT_AT + 1; i++) await browser(`203.0.113.${160 + i}`).post("/admin/demo/sign-in", { email: "nobody-here@example.com", password: "wrong wrong" });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM emails WHERE recipient = 'nobody-here@example.com'").first<{ n: number }>())!.n).toBe(0);
  });
});

describe("changing one's password", () => {
  it("allows as many guesses of the current one as sign-in does, then refuses even the right one for the window", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "manager");
    const here = await signedIn("demo", email, "198.51.100.150");
    for (let i = 0; i < PAIR_ATTEMPTS; i++) {
      const wrong = await here.post("/admin/demo/account/password", { current: `not it ${i}`, password: "a brand new password" });
      expect(wrong.status).toBe(422);
    }
    const blocked = await here.post("/admin/demo/account/password", { current: PASSWORD, password: "a brand new password" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Nothing changed: the old password still opens the account.
    expect((await browser("198.51.100.151").post("/admin/demo/sign-in", { email, password: PASSWORD })).status).toBe(303);
  });
});

describe("a link's token", () => {
  it("opens only its own purpose: a reset link is no invitation", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "front_desk");
    const asked = await requestPasswordReset(env.DB, DEMO_BUSINESS_ID, "demo", { email, address: "198.51.100.160", origin: "http://127.0.0.1", language: "en", platform: platformMail(env) }, new Date());
    expect(asked.mailed).toBe(true);
    const row = await env.DB.prepare("SELECT params FROM emails WHERE kind = 'staff_password_reset' AND recipient = ? ORDER BY created_at DESC").bind(email).first<{ params: string }>();
    const link = JSON.parse(row!.params).link as string;
    const token = link.split("/").pop()!;
    expect((await browser().get(`/admin/invite/${token}`)).status).toBe(404);
    expect((await browser().post(`/admin/invite/${token}`, { password: "surf the morning glass", confirm: "surf the morning glass" })).status).toBe(404);
    // the reset link itself still works
    expect((await browser().get(new URL(link).pathname)).status).toBe(200);
  });
});

describe("pages before a session", () => {
  it("are never stored by a browser or a proxy: the invitation, the reset link, the sign-in with an address", async () => {
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email: staffEmail("cache"), role: "front_desk" }, new Date());
    const { email } = await createStaff(DEMO_BUSINESS_ID, "front_desk");
    await requestPasswordReset(env.DB, DEMO_BUSINESS_ID, "demo", { email, address: "198.51.100.170", origin: "http://127.0.0.1", language: "en", platform: platformMail(env) }, new Date());
    const row = await env.DB.prepare("SELECT params FROM emails WHERE kind = 'staff_password_reset' AND recipient = ? ORDER BY created_at DESC").bind(email).first<{ params: string }>();
    const resetPath = new URL(JSON.parse(row!.params).link).pathname;
    for (const path of [`/admin/invite/${invite.token}`, resetPath, `/admin/demo/sign-in?email=${encodeURIComponent(email)}`, "/admin/demo/forgot", "/admin"]) {
      const res = await browser().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
    }
  });
});

describe("a reset link asked for through a Host the service does not know", () => {
  it("is not made from that Host: without PUBLIC_ORIGIN it is refused and no e-mail is written", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "front_desk");
    const res = await fetchWorker("https://evil.example/admin/demo/forgot", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", "CF-Connecting-IP": "198.51.100.180" },
      body: new URLSearchParams({ email }).toString(),
    });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("PUBLIC_ORIGIN");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM emails WHERE recipient = ?").bind(email).first("n")).toBe(0);
  });
});
