import { describe, expect, it } from "vitest";
import { effectiveState, transition, type CartAction, type CartStateRow } from "../src/domain/cart-state";

const EXPIRES = "2026-11-21T10:10:00.000Z";
const BEFORE = "2026-11-21T10:09:59.999Z";
const AT = EXPIRES;
const row = (status: CartStateRow["status"], abandon_reason: CartStateRow["abandon_reason"] = null): CartStateRow => ({
  status,
  expires_at: EXPIRES,
  abandon_reason,
});
const actions: CartAction[] = ["add", "extend", "checkout", "abandon", "expire"];

describe("cart state machine: open -> checked_out | abandoned, nothing else", () => {
  it("an open cart before its expiry: add and extend keep it open, checkout checks it out, abandon abandons it", () => {
    expect(transition(row("open"), "add", BEFORE)).toEqual({ ok: true, next: { status: "open", abandon_reason: null } });
    expect(transition(row("open"), "extend", BEFORE)).toEqual({ ok: true, next: { status: "open", abandon_reason: null } });
    expect(transition(row("open"), "checkout", BEFORE)).toEqual({ ok: true, next: { status: "checked_out", abandon_reason: null } });
    expect(transition(row("open"), "abandon", BEFORE)).toEqual({ ok: true, next: { status: "abandoned", abandon_reason: "deleted" } });
  });

  it("the expiry sweep refuses a cart that has not expired yet (an early alarm changes nothing)", () => {
    expect(transition(row("open"), "expire", BEFORE).ok).toBe(false);
  });

  it("at its expiry instant an open cart is abandoned (expired): the boundary belongs to expiry, as in the database", () => {
    expect(effectiveState(row("open"), AT)).toEqual({ status: "abandoned", abandon_reason: "expired" });
    expect(effectiveState(row("open"), BEFORE)).toEqual({ status: "open", abandon_reason: null });
  });

  it.each(["add", "extend", "checkout"] as const)("an expired cart refuses %s with 410 cart_expired, swept or not", (action) => {
    for (const r of [row("open"), row("abandoned", "expired")]) {
      const t = transition(r, action, AT);
      expect(t.ok).toBe(false);
      if (!t.ok) expect(t.refusal).toMatchObject({ status: 410, code: "cart_expired" });
    }
  });

  it.each(["add", "extend", "checkout"] as const)("a deleted cart refuses %s with 409 cart_not_open", (action) => {
    const t = transition(row("abandoned", "deleted"), action, BEFORE);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.refusal).toMatchObject({ status: 409, code: "cart_not_open" });
  });

  it("a checked-out cart refuses every action with 409 cart_not_open, before and after its old expiry", () => {
    for (const action of actions) {
      for (const now of [BEFORE, "2027-01-01T00:00:00.000Z"]) {
        const t = transition(row("checked_out"), action, now);
        expect(t.ok).toBe(false);
        if (!t.ok) expect(t.refusal).toMatchObject({ status: 409, code: "cart_not_open" });
      }
    }
    expect(effectiveState(row("checked_out"), "2027-01-01T00:00:00.000Z").status).toBe("checked_out");
  });

  it("abandoning an abandoned cart again is allowed and keeps the first reason (DELETE is idempotent)", () => {
    expect(transition(row("abandoned", "deleted"), "abandon", BEFORE)).toEqual({ ok: true, next: { status: "abandoned", abandon_reason: "deleted" } });
    expect(transition(row("abandoned", "expired"), "abandon", AT)).toEqual({ ok: true, next: { status: "abandoned", abandon_reason: "expired" } });
    expect(transition(row("open"), "abandon", AT)).toEqual({ ok: true, next: { status: "abandoned", abandon_reason: "expired" } });
  });

  it("no action ever leads back to open from a closed state", () => {
    for (const status of ["checked_out", "abandoned"] as const) {
      for (const action of actions) {
        const t = transition(row(status, status === "abandoned" ? "deleted" : null), action, BEFORE);
        if (t.ok) expect(t.next.status).not.toBe("open");
      }
    }
  });
});
