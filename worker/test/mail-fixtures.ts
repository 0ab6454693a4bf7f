/**
 * Reading the e-mails a test made: the outbox rows, the messages the local send_email binding was
 * handed (the .eml files it wrote, served by worker/test/mail-files.ts), their headers and parts.
 */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import { mailStub } from "../src/db/emails";
import { dbOf } from "./helpers";

export const outboxRows = async (businessId: number) =>
  (await (await dbOf(businessId)).prepare("SELECT * FROM emails WHERE business_id = ? ORDER BY kind, recipient").bind(businessId).all<any>()).results;

/** Wait until the business's delivery object has nothing running or due. */
export async function mailSettled(businessId: number) {
  await mailStub(env, businessId).idle();
}

/** What the local send_email binding was handed with this Message-ID. */
export async function handedOver(messageId: string): Promise<{ file: string; raw: string }[]> {
  const res = await fetch(`http://127.0.0.1:${inject("mailFilesPort")}/mail?message_id=${encodeURIComponent(messageId)}`);
  return res.json();
}

/** The decoded text/plain part of a message this service built (base64, UTF-8). */
export function textPart(raw: string): string {
  const m = /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(raw);
  if (!m) throw new Error("no text part");
  return new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/\r\n/g, "")), (c) => c.charCodeAt(0)));
}

export const mailHeader = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(raw)?.[1]?.trim();

/** A header's value with its RFC 2047 encoded words decoded (UTF-8, B or Q), folded lines joined. */
export function decodedHeader(raw: string, name: string): string | undefined {
  const m = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "mi").exec(raw);
  if (!m) return undefined;
  const folded = m[1].replace(/\r?\n[ \t]/g, " ");
  return folded
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === "B"
          ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
          : Uint8Array.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), (c) => c.charCodeAt(0));
      return new TextDecoder().decode(bytes);
    })
    .trim();
}
