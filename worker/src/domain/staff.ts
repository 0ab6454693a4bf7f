/**
 * What each back-office role may do (issue 20). Pure: the back office's pages and manage/ ask
 * `may(role, permission)` and nothing else.
 *
 *   owner       everything, staff and API keys included, and resending e-mails
 *   manager     catalog, prices, settings, bookings, refunds, the Outbox (and everything front desk does); not staff, keys or resending
 *   front_desk  bookings (payments recorded too), guests, check-in and check-out; no refunds, prices, catalog or settings
 */
export const ROLES = ["owner", "manager", "front_desk"] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | "bookings" // read bookings, cancel, notes, booker and guest edits, record a payment
  | "refunds" // refund a payment (money leaves the business: a manager's or the owner's call)
  | "guests" // the guest list and its CSV
  | "check_in" // check guests in and out
  | "calendar" // read the calendar
  | "inventory" // block and unblock dates (with capacity, a catalog change)
  | "catalog"
  | "prices"
  | "settings"
  | "audit" // read the audit log
  | "developers" // API keys and webhooks
  | "emails" // the Outbox: the e-mails sent to guests and the business, and why one failed
  | "emails_resend" // send an e-mail again
  | "staff"; // invite, change roles, remove

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ["bookings", "refunds", "guests", "check_in", "calendar", "inventory", "catalog", "prices", "settings", "audit", "developers", "emails", "emails_resend", "staff"],
  manager: ["bookings", "refunds", "guests", "check_in", "calendar", "inventory", "catalog", "prices", "settings", "audit", "emails"],
  front_desk: ["bookings", "guests", "check_in", "calendar"],
};

export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role]?.includes(permission) ?? false;
}

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);

/** Trimmed, lower-case: the form an e-mail is compared in. */
export const normalizeStaffEmail = (email: string) => email.trim().toLowerCase();

/** A plain e-mail check (the address must reach a person; the invitation link proves it). */
export const isEmail = (value: string) => value.length <= 255 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
