import { describe, expect, it } from "vitest";
import { isEmail, isRole, may, normalizeStaffEmail, ROLES, type Permission } from "./staff";

// What each role may do, as docs/back-office.md promises it to an owner choosing a role.
const ALL: Permission[] = ["bookings", "refunds", "guests", "check_in", "calendar", "inventory", "catalog", "prices", "settings", "audit", "developers", "emails", "emails_resend", "staff"];
const granted = (role: (typeof ROLES)[number]) => ALL.filter((p) => may(role, p));

describe("may(role, permission)", () => {
  it("lets the owner do everything, staff and API keys included", () => {
    expect(granted("owner")).toEqual(ALL);
  });

  it("lets a manager run the catalog, prices, settings, bookings, refunds and the Outbox, but not Developers (API keys, webhooks), Staff or resending", () => {
    expect(granted("manager")).toEqual(["bookings", "refunds", "guests", "check_in", "calendar", "inventory", "catalog", "prices", "settings", "audit", "emails"]);
    for (const p of ["developers", "staff", "emails_resend"] as const) expect(may("manager", p), p).toBe(false);
  });

  it("keeps the front desk to bookings (payments recorded, never refunded), guests, check-in and the calendar", () => {
    expect(granted("front_desk")).toEqual(["bookings", "guests", "check_in", "calendar"]);
    expect(may("front_desk", "refunds")).toBe(false);
  });

  it("grants nothing to a role it does not know (a stale or forged session)", () => {
    for (const p of ALL) expect(may("admin" as never, p)).toBe(false);
  });
});

describe("roles and e-mails", () => {
  it("knows exactly the three roles", () => {
    expect(ROLES).toEqual(["owner", "manager", "front_desk"]);
    expect(["owner", "manager", "front_desk"].every(isRole)).toBe(true);
    for (const v of ["Owner", "admin", "", null, 1, "front-desk"]) expect(isRole(v), String(v)).toBe(false);
  });

  it("compares e-mails trimmed and in lower case, and wants one that can reach a person", () => {
    expect(normalizeStaffEmail("  Ana.Silva@Camp.Example ")).toBe("ana.silva@camp.example");
    expect(isEmail("ana@camp.example")).toBe(true);
    for (const v of ["ana", "ana@camp", "@camp.example", "ana silva@camp.example", `${"a".repeat(250)}@camp.example`]) expect(isEmail(v), v).toBe(false);
  });
});
