import { describe, expect, it } from "vitest";
import { platformMail, replyToOf, senderDomainProblem, senderOf, senderSettingProblem, sendingDomains } from "./sender";

const platform = platformMail({ EMAIL_SENDING_DOMAINS: " Bookings.example , mail.example., ", EMAIL_DEFAULT_FROM: "bookings@bookings.example" });

describe("the sending-domain rule", () => {
  it("reads the operator's list: trimmed, lower case, no trailing dot, no empty entries", () => {
    expect(platform).toEqual({ domains: ["bookings.example", "mail.example"], defaultFrom: "bookings@bookings.example" });
    expect(sendingDomains(undefined)).toEqual([]);
    expect(platformMail({ EMAIL_DEFAULT_FROM: " " }).defaultFrom).toBeNull();
  });

  it("allows an address on a listed domain only, exactly: no subdomain, no suffix", () => {
    expect(senderDomainProblem("desk@MAIL.example", platform.domains)).toBeNull();
    expect(senderDomainProblem("desk@sub.mail.example", platform.domains)).toContain("bookings.example, mail.example");
    expect(senderDomainProblem("desk@evilmail.example", platform.domains)).not.toBeNull();
    expect(senderDomainProblem("desk@mail.example.evil.test", platform.domains)).not.toBeNull();
    expect(senderDomainProblem("desk@mail.example", [])).toContain("no sending domains");
  });

  it("sends from the business's own listed sender, else the platform's, else nobody", () => {
    expect(senderOf("desk@mail.example", platform)).toEqual({ address: "desk@mail.example", platform: false });
    expect(senderOf("desk@elsewhere.example", platform)).toEqual({ address: "bookings@bookings.example", platform: true });
    expect(senderOf(null, platform)).toEqual({ address: "bookings@bookings.example", platform: true });
    expect(senderOf(null, { ...platform, defaultFrom: null })).toBeNull();
  });

  it("answers replies to the contact, else (from the platform) the first notification address, never the platform", () => {
    const own = { address: "desk@mail.example", platform: false };
    const shared = { address: "bookings@bookings.example", platform: true };
    expect(replyToOf({ contact_email: "hola@camp.example", notification_emails: ["o@camp.example"] }, shared)).toBe("hola@camp.example");
    expect(replyToOf({ contact_email: null, notification_emails: ["o@camp.example"] }, shared)).toBe("o@camp.example");
    expect(replyToOf({ contact_email: null, notification_emails: [] }, shared)).toBeNull();
    expect(replyToOf({ contact_email: null, notification_emails: ["o@camp.example"] }, own)).toBeNull();
  });

  it("checks a settings write only when the sender is set and changed", () => {
    expect(senderSettingProblem({ email_from: "x@elsewhere.example" }, { email_from: "X@elsewhere.example" }, platform.domains)).toBeNull();
    expect(senderSettingProblem({ email_from: "x@elsewhere.example" }, { email_from: null }, platform.domains)).not.toBeNull();
    expect(senderSettingProblem({ email_from: null }, { email_from: "x@mail.example" }, platform.domains)).toBeNull();
  });
});
