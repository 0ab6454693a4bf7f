/**
 * Who an e-mail of a business is sent as. The operator lists the sending domains the deployment
 * onboarded to Cloudflare Email Service (`EMAIL_SENDING_DOMAINS`) and may name the platform's own
 * sender (`EMAIL_DEFAULT_FROM`). A business may send as an address on a listed domain
 * (`email_from`); otherwise its e-mails go from the platform's sender, under the business's name,
 * answered to its contact. Pure: the Worker's variables are handed in.
 */

/** The operator's sending configuration, read from the Worker's variables. */
export interface PlatformMail {
  /** Onboarded sending domains, lower case; empty: no business may set its own sender. */
  domains: string[];
  /** The platform's sender for businesses without their own; null: such businesses send nothing. */
  defaultFrom: string | null;
}

export interface MailVars {
  EMAIL_SENDING_DOMAINS?: string;
  EMAIL_DEFAULT_FROM?: string;
}

/** "bookings.example, Mail.example" as ["bookings.example", "mail.example"]. */
export function sendingDomains(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/\.$/, ""))
    .filter(Boolean);
}

export function platformMail(vars: MailVars): PlatformMail {
  const from = (vars.EMAIL_DEFAULT_FROM ?? "").trim();
  return { domains: sendingDomains(vars.EMAIL_SENDING_DOMAINS), defaultFrom: from.includes("@") ? from : null };
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/**
 * Why `address` may not be a business's sender, or null when it may: its domain must be one the
 * operator listed, exactly (a subdomain is onboarded, and so listed, on its own).
 */
export function senderDomainProblem(address: string, domains: string[]): string | null {
  if (domains.includes(domainOf(address))) return null;
  if (!domains.length) return "this deployment has no sending domains for businesses (EMAIL_SENDING_DOMAINS): leave it empty, e-mails go from the platform's sender";
  return `must be an address on a sending domain of this deployment: ${domains.join(", ")}`;
}

export interface Sender {
  /** The From address. */
  address: string;
  /** Whether it is the platform's sender (the business set none of its own on a listed domain). */
  platform: boolean;
}

/**
 * The sender of a business's e-mails: its `email_from` when that is on a listed domain, else the
 * platform's sender, else none (the business sends no e-mail).
 */
export function senderOf(emailFrom: string | null, platform: PlatformMail): Sender | null {
  if (emailFrom && senderDomainProblem(emailFrom, platform.domains) === null) return { address: emailFrom, platform: false };
  if (platform.defaultFrom) return { address: platform.defaultFrom, platform: true };
  return null;
}

/**
 * Where replies to the business's e-mails go: its contact address; from the platform's sender
 * without one, its first notification address (a reply must never land in the platform's box).
 */
export function replyToOf(config: { contact_email: string | null; notification_emails: string[] }, sender: Sender): string | null {
  return config.contact_email ?? (sender.platform ? (config.notification_emails[0] ?? null) : null);
}

/**
 * The rule on a settings write: a business's own sender, when set and changed, must be on a
 * listed domain (an unchanged one is left alone; off the list it is simply not used, senderOf).
 */
export function senderSettingProblem(after: { email_from?: unknown }, before: { email_from?: unknown } | null, domains: string[]): string | null {
  const from = after.email_from;
  if (typeof from !== "string" || !from.includes("@")) return null;
  if (before && typeof before.email_from === "string" && before.email_from.toLowerCase() === from.toLowerCase()) return null;
  return senderDomainProblem(from, domains);
}
