/** The Outbox: the e-mails the service wrote for the business, their status, and sending one again. */
import type { Area } from "../kit/area";
import { emailPage, emailResend, emailsPage } from "./emails";

export const outbox: Area = {
  name: "outbox",
  nav: [{ key: "emails", path: "/emails", permission: "emails" }],
  routes: [
    { method: "get", path: "/:business/emails", permission: "emails", handler: emailsPage },
    { method: "get", path: "/:business/emails/:id", permission: "emails", handler: emailPage },
    { method: "post", path: "/:business/emails/:id/resend", permission: "emails_resend", handler: emailResend },
  ],
};
