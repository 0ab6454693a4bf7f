/**
 * One e-mail as a MIME message (RFC 5322, 2045-2047): a multipart/alternative of a plain-text and
 * an HTML part, both UTF-8 in base64, headers encoded where they are not plain ASCII. Pure.
 *
 * Written here rather than with a library: the maintained one for Workers (mimetext) brings
 * core-js polyfills and mime-db into the Worker (54 kB minified for its browser build) and labels
 * UTF-8 bodies `7bit` unless told otherwise; what we send is two text parts and a few headers.
 */

export interface Address {
  email: string;
  name?: string;
}

export interface MimeInput {
  from: Address;
  to: string;
  replyTo?: string | null;
  subject: string;
  /** `<local@domain>`, stable for the e-mail (every attempt sends the same one). */
  messageId: string;
  date: Date;
  /** BCP 47 language of the content (Content-Language). */
  language: string;
  text: string;
  html: string;
  /** Extra headers (X-...), ASCII values. */
  headers?: Record<string, string>;
  /** Files that ride with the message (a calendar file): it becomes multipart/mixed around the text and HTML. */
  attachments?: { filename: string; type: string; content: string }[];
}

const CRLF = "\r\n";
const utf8 = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Body text in base64, lines of 76 characters (RFC 2045). */
function base64Body(text: string): string {
  const b64 = base64(utf8.encode(text.replace(/\r?\n/g, CRLF)));
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join(CRLF);
}

const isPlainAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/**
 * RFC 2047 encoded words for a header value that is not plain ASCII: UTF-8 in base64, each word at
 * most 75 characters and never splitting a character, separated by folding whitespace.
 */
export function encodeWords(value: string): string {
  if (isPlainAscii(value)) return value;
  const words: string[] = [];
  let chunk: number[] = [];
  for (const ch of value) {
    const bytes = [...utf8.encode(ch)];
    // 45 bytes of text are 60 characters of base64: "=?UTF-8?B?" + 60 + "?=" is 72.
    if (chunk.length + bytes.length > 45) {
      words.push(`=?UTF-8?B?${base64(Uint8Array.from(chunk))}?=`);
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length) words.push(`=?UTF-8?B?${base64(Uint8Array.from(chunk))}?=`);
  return words.join(`${CRLF} `);
}

/** `"Name" <email>`, the name quoted or encoded as it needs. */
export function formatAddress(a: Address): string {
  if (!a.name) return a.email;
  const name = a.name.replace(/[\r\n]+/g, " ").trim();
  if (!name) return a.email;
  if (isPlainAscii(name)) return `"${name.replace(/(["\\])/g, "\\$1")}" <${a.email}>`;
  return `${encodeWords(name)} <${a.email}>`;
}

/** RFC 5322 date: "Tue, 24 Nov 2026 10:44:21 +0000". */
export function rfc5322Date(d: Date): string {
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
  const two = (n: number) => String(n).padStart(2, "0");
  return `${day}, ${two(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** A short stable hash (FNV-1a, 32 bits) as 8 hex digits: boundaries and event keys. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (const b of utf8.encode(text)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** An address fit for a header: no line breaks or angle brackets can ride in. */
function safeAddress(email: string): string {
  if (!/^[^\s<>(),;:"\\]+@[^\s<>(),;:"\\]+$/.test(email)) throw new Error(`not an e-mail address: ${JSON.stringify(email)}`);
  return email;
}

/** The whole message, CRLF line ends. */
export function buildMime(m: MimeInput): string {
  const boundary = `=_bw_${shortHash(m.messageId)}${shortHash(m.subject + m.to)}`;
  const headers: [string, string][] = [
    ["From", formatAddress({ ...m.from, email: safeAddress(m.from.email) })],
    ["To", safeAddress(m.to)],
    ...(m.replyTo ? [["Reply-To", safeAddress(m.replyTo)] as [string, string]] : []),
    ["Subject", encodeWords(m.subject.replace(/[\r\n]+/g, " "))],
    ["Date", rfc5322Date(m.date)],
    ["Message-ID", m.messageId],
    ["MIME-Version", "1.0"],
    ["Content-Language", m.language],
    // A transactional message: auto-responders do not answer it (RFC 3834).
    ["Auto-Submitted", "auto-generated"],
    ...Object.entries(m.headers ?? {}).map(([k, v]) => {
      if (!/^X-[A-Za-z0-9-]+$/.test(k) || !isPlainAscii(v)) throw new Error(`header not allowed: ${k}`);
      return [k, v] as [string, string];
    }),
  ];
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, "Content-Transfer-Encoding: base64", "", base64Body(body)].join(CRLF);
  const alternative = [part("text/plain", m.text), part("text/html", m.html), `--${boundary}--`];
  const files = m.attachments ?? [];
  if (!files.length) {
    return [...headers.map(([k, v]) => `${k}: ${v}`), `Content-Type: multipart/alternative; boundary="${boundary}"`, "", ...alternative, ""].join(CRLF);
  }
  const mixed = `=_bwm_${shortHash(m.messageId)}${shortHash(files.map((f) => f.filename).join())}`;
  const file = (f: { filename: string; type: string; content: string }) => {
    if (!/^[\w.-]+$/.test(f.filename) || !/^[\w.+-]+\/[\w.+-]+(; ?[\w-]+=[\w.-]+)*$/.test(f.type)) throw new Error(`attachment not allowed: ${f.filename}`);
    return [`--${mixed}`, `Content-Type: ${f.type}; charset=utf-8; name="${f.filename}"`, `Content-Disposition: attachment; filename="${f.filename}"`, "Content-Transfer-Encoding: base64", "", base64Body(f.content)].join(CRLF);
  };
  return [
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    "",
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    ...alternative,
    ...files.map(file),
    `--${mixed}--`,
    "",
  ].join(CRLF);
}

/**
 * The text and HTML parts of a message this module built (base64 UTF-8 parts), for showing it to
 * the business as it was sent. Not a general MIME parser: what it does not recognise is left out.
 */
export function readParts(raw: string): { text: string | null; html: string | null } {
  const part = (type: string) => {
    const m = new RegExp(`Content-Type: ${type}; charset=utf-8\\r\\nContent-Transfer-Encoding: base64\\r\\n\\r\\n([A-Za-z0-9+/=\\r\\n]+?)\\r\\n--`).exec(raw);
    if (!m) return null;
    try {
      return new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/\r\n/g, "")), (c) => c.charCodeAt(0)));
    } catch {
      return null;
    }
  };
  return { text: part("text/plain"), html: part("text/html") };
}
