/**
 * Issue 28, secrets and accounts: what the service writes down or sends about a link's secret.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { inviteStaff } from "../src/manage/staff";
import { browser, PASSWORD, staffEmail } from "./admin-fixtures";
import { DEMO_BUSINESS_ID } from "./helpers";

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
