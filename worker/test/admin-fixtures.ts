import { env } from "cloudflare:test";
import { acceptInvite, inviteStaff } from "../src/manage/staff";
import { BASE, dbOf, fetchWorker } from "./helpers";

export const ORIGIN = BASE;
export const PASSWORD = "correct horse battery";

let counter = 0;
/** A staff e-mail no other test uses. */
export const staffEmail = (prefix = "staff") => `${prefix}-${++counter}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A staff user with a password, made as the back office makes one: an invitation, accepted. */
export async function createStaff(businessId: number, role: "owner" | "manager" | "front_desk", email = staffEmail(role)): Promise<{ email: string; staffId: string }> {
  const db = await dbOf(businessId);
  const invite = await inviteStaff(db, { kind: "cli", id: "test", name: "test" }, businessId, { email, role }, new Date());
  await acceptInvite(db, invite.token, PASSWORD, new Date());
  return { email, staffId: invite.staffId };
}

export interface Browser {
  cookie?: string;
  /** The back office's D1 bookmark cookie (`d1_bookmark=...`), kept and sent back as a browser does. */
  bookmark?: string;
  csrf?: string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** A form as fields by name, or as a browser sends it: pairs in page order (a name may repeat). */
  post(path: string, form: Record<string, string> | [string, string][], headers?: Record<string, string>): Promise<Response>;
}

/** A browser of one person: keeps the session cookie, sends same-origin forms (Origin header) with the page's CSRF token. */
export function browser(address = "198.51.100.7"): Browser {
  const b: Browser = {
    async get(path, headers = {}) {
      const res = await fetchWorker(new URL(path, BASE), { headers: { ...cookies(), "CF-Connecting-IP": address, ...headers } });
      remember(res);
      return res;
    },
    async post(path, form, headers = {}) {
      const body = (Array.isArray(form) ? new URLSearchParams([...(b.csrf && !form.some(([n]) => n === "_csrf") ? [["_csrf", b.csrf]] : []), ...form]) : new URLSearchParams({ ...(b.csrf ? { _csrf: b.csrf } : {}), ...form })).toString();
      const res = await fetchWorker(new URL(path, BASE), {
        method: "POST",
        body,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: ORIGIN,
          "CF-Connecting-IP": address,
          ...cookies(),
          ...headers,
        },
      });
      remember(res);
      return res;
    },
  };
  const cookies = (): Record<string, string> => {
    const jar = [b.cookie, b.bookmark].filter(Boolean).join("; ");
    return jar ? { Cookie: jar } : {};
  };
  const remember = (res: Response) => {
    for (const set of res.headers.getSetCookie()) {
      const m = /^((?:__Host-)?bo_session)=([^;]*)/.exec(set);
      if (m) b.cookie = m[2] ? `${m[1]}=${m[2]}` : undefined;
      const d1 = /^d1_bookmark=([^;]*)/.exec(set);
      if (d1) b.bookmark = d1[1] ? `d1_bookmark=${d1[1]}` : undefined;
    }
  };
  return b;
}

/** Sign in through the form; the browser keeps the cookie and the CSRF token of the first page. */
export async function signedIn(slug: string, email: string, address?: string): Promise<Browser> {
  const b = browser(address);
  const res = await b.post(`/admin/${slug}/sign-in`, { email, password: PASSWORD });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const page = await b.get(`/admin/${slug}/today`);
  const html = await page.text();
  b.csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  return b;
}

export const env_ = env;
