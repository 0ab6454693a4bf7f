import { createRoute, z } from "@hono/zod-openapi";
import { EMAIL_KIND_NAMES, EMAIL_STATUSES, EmailEnvelope, EmailList, EmailResent } from "../../contract/private-emails";
import { problemResponse } from "../../contract/problem";
import { emailById, listEmails, type EmailRow } from "../../db/emails";
import { notFound } from "../../lib/errors";
import { resendEmail } from "../../manage/emails";
import { keyActor } from "./actor";
import { createRouter } from "../router";
import { authResponses, bodyResponses, json } from "./openapi-parts";
import { QueryReader, setPagingHeaders, pageParam, limitParam, enumListParam } from "./query";

const tags = ["E-mails"];

const IdParam = z.object({ email_id: z.string().openapi({ param: { name: "email_id", in: "path" }, example: "eml_019ab3c4d5e67f8091a2b3c4d5e6f708" }) });

/** An e-mail as the API (and the back office's Outbox) shows it. */
export const emailView = (e: EmailRow) => ({
  id: e.id,
  kind: e.kind as (typeof EMAIL_KIND_NAMES)[number],
  booking_id: e.booking_id,
  recipient: e.recipient,
  language: e.language,
  status: e.status,
  message_id: e.message_id,
  subject: e.subject,
  sender: e.sender,
  attempts: e.attempts,
  possible_duplicate: e.unconfirmed_attempts > 0 && e.status === "sent",
  last_error: e.last_error,
  next_attempt_at: e.next_attempt_at,
  sent_at: e.sent_at,
  resend_of: e.resend_of,
  created_at: e.created_at,
});

const list = createRoute({
  method: "get",
  path: "/emails",
  operationId: "listEmails",
  tags,
  summary: "List the business's e-mails",
  description:
    "Every e-mail the service wrote for the business (booking confirmations and cancellations to bookers, new-booking and cancellation notifications to the business), newest first, with its status and, when an attempt failed, the reason. " +
    "Filters: `status` and `kind` (lists), `booking_id`. `page`, `limit` (1 to 100, default 10); X-Total-Count and Link headers.",
  request: {
    query: z.object({
      status: enumListParam(EMAIL_STATUSES),
      kind: enumListParam(EMAIL_KIND_NAMES),
      booking_id: z.string().optional(),
      page: pageParam(),
      limit: limitParam(),
    }),
  },
  responses: { 200: json(EmailList, "One page of e-mails (without their messages)."), ...authResponses, 422: problemResponse("An invalid query parameter.") },
});

const one = createRoute({
  method: "get",
  path: "/emails/{email_id}",
  operationId: "getEmail",
  tags,
  summary: "Fetch an e-mail with its message as sent",
  request: { params: IdParam },
  responses: { 200: json(EmailEnvelope, "The e-mail and its MIME message."), ...authResponses, 404: problemResponse("No such e-mail.") },
});

const resend = createRoute({
  method: "post",
  path: "/emails/{email_id}/resend",
  operationId: "resendEmail",
  tags,
  summary: "Send an e-mail again",
  description:
    "A new e-mail of the same kind, booking, recipient and language, composed now and sent at once (with the usual retries), under a Message-ID of its own: " +
    "for a failed one after its cause was fixed (a sender domain verified, say), or for a sent one that did not arrive. The original keeps its record. " +
    "An e-mail still on its way (pending, sending, retrying) cannot be resent: 409.",
  request: { params: IdParam },
  responses: {
    202: json(EmailResent, "The new e-mail, pending."),
    ...authResponses,
    ...bodyResponses,
    404: problemResponse("No such e-mail."),
    409: problemResponse("The e-mail is still on its way."),
  },
});

export const emailRoutes = createRouter()
  .openapi(list, async (c) => {
    const q = new QueryReader(c);
    const status = q.enums("status", EMAIL_STATUSES);
    const kind = q.enums("kind", EMAIL_KIND_NAMES);
    const bookingId = q.string("booking_id", 64);
    const paging = q.paging();
    q.done();
    const { rows, total } = await listEmails(c.env.DB, c.get("tenant").businessId, { status, kind, bookingId, ...paging });
    setPagingHeaders(c, total, paging.page, paging.limit);
    return c.json({ data: rows.map(emailView), meta: { ...paging, total } }, 200);
  })
  .openapi(one, async (c) => {
    const row = await emailById(c.env.DB, c.get("tenant").businessId, c.req.valid("param").email_id);
    if (!row) throw notFound("The e-mail");
    return c.json({ data: { ...emailView(row), raw: row.raw } }, 200);
  })
  .openapi(resend, async (c) => {
    const row = await resendEmail(c.env, keyActor(c), c.get("tenant").businessId, c.req.valid("param").email_id, c.get("now"));
    return c.json({ data: emailView(row) }, 202);
  });
