/**
 * What docs/back-office.md promises about roles, sessions, owners, signed-in pages and the guest
 * CSV, each through the back office's own URLs as a browser uses them.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ACCOUNT_ATTEMPTS } from "../src/manage/staff";
import { browser, createStaff, PASSWORD, signedIn } from "./admin-fixtures";
import { createBusiness, dbOf, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

/** A COUNT over both shards (the file's businesses are on either: docs/design.md "Shards"). */
const count = async (sql: string, ...params: unknown[]) => {
  const rows = await Promise.all([env.DB, env.DB_SHARD_1].map((db) => db.prepare(sql).bind(...params).first<{ n: number }>()));
  return rows.reduce((n, r) => n + (r?.n ?? 0), 0);
};
/** A business of its own, so that its owners and sign-in counters are this test's alone. */
async function ownBusiness(prefix: string) {
  const slug = `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  return { slug, businessId: await createBusiness(slug) };
}

describe("a manager", () => {
  it("is refused Developers (API keys, webhooks) and Staff, reading or changing, and nothing changes", async () => {
    const manager = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "manager")).email);
    expect((await manager.get("/admin/demo/today")).status).toBe(200);
    for (const path of ["/admin/demo/developers", "/admin/demo/staff"]) {
      const res = await manager.get(path);
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain("Your role does not allow this");
    }
    const before = await Promise.all([
      count("SELECT COUNT(*) AS n FROM api_keys WHERE business_id = ?", DEMO_BUSINESS_ID),
      count("SELECT COUNT(*) AS n FROM webhooks WHERE business_id = ?", DEMO_BUSINESS_ID),
      count("SELECT COUNT(*) AS n FROM staff_users WHERE business_id = ?", DEMO_BUSINESS_ID),
    ]);
    const posts: [string, Record<string, string>][] = [
      ["/admin/demo/developers/keys", { name: "by-a-manager", scope: "private" }],
      ["/admin/demo/developers/webhooks", { url: "https://hooks.example.com/manager", events: "BookingCancelled" }],
      ["/admin/demo/staff/invite", { email: uniqueEmail("by-manager"), name: "Nope", role: "owner" }],
    ];
    for (const [path, form] of posts) expect((await manager.post(path, form)).status, path).toBe(403);
    expect(
      await Promise.all([
        count("SELECT COUNT(*) AS n FROM api_keys WHERE business_id = ?", DEMO_BUSINESS_ID),
        count("SELECT COUNT(*) AS n FROM webhooks WHERE business_id = ?", DEMO_BUSINESS_ID),
        count("SELECT COUNT(*) AS n FROM staff_users WHERE business_id = ?", DEMO_BUSINESS_ID),
      ]),
    ).toEqual(before);
  });
});

describe("sessions and sign-in", () => {
  it("end 12 hours after sign-in, however active the user was", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const signedInAt = Date.now();
    const at = (minutes: number) => ({ "X-Test-Now": new Date(signedInAt + minutes * 60_000).toISOString() });
    // A page every 50 minutes: never idle for an hour.
    for (let minutes = 50; minutes < 12 * 60; minutes += 50) expect((await b.get("/admin/demo/today", at(minutes))).status, `${minutes} min`).toBe(200);
    expect((await b.get("/admin/demo/today", at(11 * 60 + 55))).status).toBe(200);
    const late = await b.get("/admin/demo/today", at(12 * 60 + 1));
    expect(late.status).toBe(303);
    expect(late.headers.get("Location")).toMatch(/\/admin\/demo\/sign-in\?/);
  });

  it("a successful sign-in clears the account's failures", async () => {
    const { slug, businessId } = await ownBusiness("clears");
    const { email } = await createStaff(businessId, "manager");
    let n = 0;
    // a new address each time, valid however many (the account's limit counts from anywhere)
    const attempt = (password: string) => (++n, browser(`198.18.${Math.floor(n / 200)}.${(n % 200) + 1}`).post(`/admin/${slug}/sign-in`, { email, password }));
    for (let round = 0; round < 2; round++) {
      // one short of the limit, then the right password: let in, and the count starts again
      for (let i = 0; i < ACCOUNT_ATTEMPTS - 1; i++) expect((await attempt(`wrong ${round}.${i}`)).status).toBe(401);
      expect((await attempt(PASSWORD)).status, `round ${round}`).toBe(303);
    }
    // without the clearing, the account would be past its limit by now: the limit still applies
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) expect((await attempt(`wrong again ${i}`)).status).toBe(401);
    expect((await attempt(PASSWORD)).status).toBe(429);
  });
});

describe("owners", () => {
  it("the last owner cannot be removed, also when two owners remove each other at once", async () => {
    const { slug, businessId } = await ownBusiness("owners");
    const a = await createStaff(businessId, "owner");
    const b = await createStaff(businessId, "owner");
    const asA = await signedIn(slug, a.email, "198.51.100.61");
    const asB = await signedIn(slug, b.email, "198.51.100.62");
    const answers = await Promise.all([asA.post(`/admin/${slug}/staff/${b.staffId}/remove`, {}), asB.post(`/admin/${slug}/staff/${a.staffId}/remove`, {})]);
    const owners = await count("SELECT COUNT(*) AS n FROM staff_users WHERE business_id = ? AND role = 'owner' AND removed_at IS NULL", businessId);
    expect(owners, `answers ${answers.map((r) => r.status).join(", ")}`).toBe(1);
    // the one left is alone now: removing itself is refused, and it stays
    const left = (await (await dbOf(businessId)).prepare("SELECT id FROM staff_users WHERE business_id = ? AND role = 'owner' AND removed_at IS NULL").bind(businessId).first<{ id: string }>())!.id;
    const self = left === a.staffId ? asA : asB;
    expect((await self.post(`/admin/${slug}/staff/${left}/remove`, {})).status).toBe(409);
    expect(await count("SELECT COUNT(*) AS n FROM staff_users WHERE id = ? AND removed_at IS NULL", left)).toBe(1);
  });
});

describe("signed-in pages", () => {
  it("send no referrer and are never stored by the browser", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    for (const path of ["/admin/demo/today", "/admin/demo/bookings", "/admin/demo/guests", "/admin/demo/settings", "/admin/demo/staff", "/admin/demo/developers"]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Referrer-Policy"), path).toBe("no-referrer");
      expect(res.headers.get("Cache-Control"), path).toMatch(/no-store/);
    }
  });
});

describe("the guest CSV", () => {
  it("defuses every leading formula character (= + - @), not only =", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const tag = crypto.randomUUID().slice(0, 8);
    const { guestIds } = await createBookingFixture({
      booker: { email: uniqueEmail("csv") },
      guests: [{ email: `f.${tag}@example.com`, first_name: "+SUM(A1)", last_name: "-2+3" }, { email: `g.${tag}@example.com`, first_name: "@cmd", last_name: "=HYPERLINK(1)" }],
      start: "2031-03-01",
      end: "2031-03-08",
    });
    const text = await (await b.get("/admin/demo/guests.csv?arrives_at=2031-03-01&booking_status=")).text();
    const row = (id: string) => text.split("\r\n").find((l) => l.startsWith(id))!;
    expect(row(guestIds[0])).toContain(`'+SUM(A1),'-2+3,f.${tag}@example.com`);
    expect(row(guestIds[1])).toContain(`'@cmd,'=HYPERLINK(1),g.${tag}@example.com`);
  });
});
