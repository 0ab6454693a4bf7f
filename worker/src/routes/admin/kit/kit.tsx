/** @jsxImportSource hono/jsx */
/**
 * What every back-office screen shares: its request type, the language and strings, the actor,
 * the redirect after a change and its message, and the form parts (fields with their hint and
 * error, tied together for screen readers). The page around them is layout.tsx, the table
 * table.tsx, reading a form form.ts, reading a filter query.ts, the table of routes area.ts.
 * Pages are rendered by Hono's JSX on the Worker: no script is needed to use them.
 */
import type { Context } from "hono";
import type { Child, FC } from "hono/jsx";
import type { Actor } from "../../../db/audit-log";
import type { Permission } from "../../../domain/staff";
import type { AppEnv } from "../../../db/request-env";
import { ApiError } from "../../../lib/errors";
import { dateIn } from "../../../lib/time";
import type { StaffSession } from "../../../manage/staff";
import { ADMIN_LANGUAGES, isLang, LANGS, type Lang, type Strings } from "../strings";

export { ADMIN_LANGUAGES, isLang, LANGS, type Lang, type Strings };

/** An entry of the top navigation (declared by an area, kit/area.ts), shown to the roles that have its permission. */
export interface NavEntry {
  key: keyof Strings["nav"];
  path: string;
  permission: Permission;
}

export type AdminEnv = {
  Bindings: Env;
  Variables: AppEnv["Variables"] & {
    /** Set by languageDetector (hono/language); the user's own choice overrides it. */
    language: string;
    staff: StaffSession;
    /** The business's slug of the URL (/admin/:business/...). */
    slug: string;
    /** The navigation of the table of areas (area.ts mountAreas), filtered by role in Layout. */
    nav: NavEntry[];
  };
};
export type AdminContext = Context<AdminEnv>;

/**
 * The request as the tenant reads of db/tenant-read.ts take it (the catalog snapshot with the
 * live ledger in one round trip): the back office's variables hold the API's (tenant, access,
 * now), set by the session (auth.tsx), so its context is one of theirs.
 */
export const tenantContext = (c: AdminContext) => c as unknown as Context<AppEnv>;

export const langOf = (c: AdminContext): Lang => {
  const chosen = c.get("staff")?.language ?? c.get("language");
  return isLang(chosen) ? chosen : "en";
};
export const stringsOf = (c: AdminContext): Strings => LANGS[langOf(c)];

/** The staff user as the audit log names them. */
export const staffActor = (c: AdminContext): Actor => {
  const s = c.get("staff");
  return { kind: "staff", id: s.staff_id, name: s.email, requestId: c.get("requestId") };
};

/** A refused action: the 403 page, nothing changed. */
export const refuse = (c: AdminContext) => new ApiError(403, "forbidden", stringsOf(c).error.forbidden);

/**
 * The query of a filter form, without its empty fields: a form sends every field, and to the
 * private API's filters an empty `status=` is a list of nothing (which matches nothing).
 */
export function filledQuery(c: AdminContext): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries() ?? {})) {
    const filled = values.filter((v) => v.trim() !== "");
    if (filled.length) out[name] = filled;
  }
  return out;
}

/** The page's base path: /admin/<business>. */
export const base = (c: AdminContext) => `/admin/${c.get("slug")}`;

/**
 * After a change: see the result with GET (POST/redirect/GET), with the key of a message to show
 * (a key, never text: a link cannot make the back office say something it does not say).
 */
export const done = (c: AdminContext, path: string, message?: string) =>
  c.redirect(message ? `${path}${path.includes("?") ? "&" : "?"}done=${encodeURIComponent(message)}` : path, 303);

/** The message of the `done` key of the URL, from the page's own table of messages. */
export const flashOf = (c: AdminContext, messages: Record<string, string | undefined>) => {
  const key = c.req.query("done");
  return key && Object.hasOwn(messages, key) ? messages[key] : undefined;
};

/** The business's today: its date in its time zone (settings time_zone, default UTC). */
export function businessToday(c: AdminContext): string {
  try {
    return dateIn(c.get("now"), c.get("staff").time_zone || "UTC");
  } catch {
    return dateIn(c.get("now"), "UTC");
  }
}

export const fmtDateTime = (iso: string | null | undefined) => (iso ? iso.replace("T", " ").slice(0, 16) : "");

/** The session's CSRF token, in every form that changes something. */
export const Csrf: FC<{ c: AdminContext }> = ({ c }) => <input type="hidden" name="_csrf" value={c.get("staff").csrf_token} />;

/** What a field's input is described by (aria-describedby): its hint and its error, when it has them. */
export const describedBy = (id: string, hint?: string, error?: string) => [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

/** The hint under a field, read with it (`${id}-hint`). */
export const FieldHint: FC<{ id: string; hint?: string }> = ({ id, hint }) =>
  hint ? (
    <small id={`${id}-hint`} class="hint">
      {hint}
    </small>
  ) : null;

/** The error of a field, tied to it by id (`${id}-error`). */
export const FieldMessage: FC<{ id: string; error?: string }> = ({ id, error }) =>
  error ? (
    <small id={`${id}-error`} class="error">
      {error}
    </small>
  ) : null;

/** The input's id of a form field (its name is the API's path, dots and all, which an id selector would need escaped). */
export const fid = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** A labelled text area with its hint and error. */
export const TextArea: FC<{ name: string; label: string; value?: string; error?: string; hint?: string; id?: string; rows?: number }> = (p) => {
  const id = p.id ?? fid(p.name);
  return (
    <div class={`field wide${p.error ? " invalid" : ""}`}>
      <label for={id}>{p.label}</label>
      <textarea id={id} name={p.name} rows={p.rows ?? 3} aria-invalid={p.error ? "true" : undefined} aria-describedby={describedBy(id, p.hint, p.error)}>
        {p.value ?? ""}
      </textarea>
      <FieldHint id={id} hint={p.hint} />
      <FieldMessage id={id} error={p.error} />
    </div>
  );
};

/** A check box (or a radio button) with its label after it. */
export const Check: FC<{ name: string; label: Child; checked: boolean; value?: string; type?: "checkbox" | "radio"; id?: string; error?: string; hint?: string }> = (p) => {
  const id = p.id ?? fid(`${p.name}-${p.value ?? "on"}`);
  return (
    <div class={`check${p.error ? " invalid" : ""}`}>
      <input type={p.type ?? "checkbox"} id={id} name={p.name} value={p.value ?? "on"} checked={p.checked} aria-invalid={p.error ? "true" : undefined} aria-describedby={describedBy(id, p.hint, p.error)} />
      <label for={id}>{p.label}</label>
      <FieldHint id={id} hint={p.hint} />
      <FieldMessage id={id} error={p.error} />
    </div>
  );
};

/** A labelled input with its error, tied together for screen readers. */
export const Field: FC<{
  name: string;
  label: string;
  type?: string;
  value?: string;
  error?: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  inputmode?: string;
  placeholder?: string;
  id?: string;
}> = (p) => {
  const id = p.id ?? `f-${p.name}`;
  return (
    <div class={`field${p.error ? " invalid" : ""}`}>
      <label for={id}>{p.label}</label>
      <input
        id={id}
        name={p.name}
        type={p.type ?? "text"}
        value={p.value ?? ""}
        required={p.required}
        autocomplete={p.autocomplete}
        inputmode={p.inputmode as "text" | undefined}
        placeholder={p.placeholder}
        aria-invalid={p.error ? "true" : undefined}
        aria-describedby={describedBy(id, p.hint, p.error)}
      />
      <FieldHint id={id} hint={p.hint} />
      <FieldMessage id={id} error={p.error} />
    </div>
  );
};

export const Select: FC<{ name: string; label: string; value?: string; options: [string, string][]; error?: string; id?: string }> = (p) => {
  const id = p.id ?? `f-${p.name}`;
  return (
    <div class={`field${p.error ? " invalid" : ""}`}>
      <label for={id}>{p.label}</label>
      <select id={id} name={p.name} aria-invalid={p.error ? "true" : undefined} aria-describedby={describedBy(id, undefined, p.error)}>
        {p.options.map(([value, label]) => (
          <option value={value} selected={value === (p.value ?? "")}>
            {label}
          </option>
        ))}
      </select>
      <FieldMessage id={id} error={p.error} />
    </div>
  );
};

/** The message of a failed form, announced. */
export const FormError: FC<{ message?: string }> = ({ message }) =>
  message ? (
    <p class="form-error" role="alert">
      {message}
    </p>
  ) : null;

/** Paging links that keep the query's other parameters. */
export const Pager: FC<{ c: AdminContext; page: number; limit: number; total: number }> = ({ c, page, limit, total }) => {
  const t = stringsOf(c);
  const pages = Math.max(1, Math.ceil(total / limit));
  const link = (p: number) => {
    const url = new URL(c.req.url);
    url.searchParams.set("page", String(p));
    url.searchParams.delete("done");
    return `${url.pathname}${url.search}`;
  };
  return (
    <nav class="pager" aria-label={t.pageOf(page, pages)}>
      <span>
        {t.pageOf(page, pages)} · {t.total(total)}
      </span>
      {page > 1 ? <a href={link(page - 1)}>{t.previous}</a> : null}
      {page < pages ? <a href={link(page + 1)}>{t.next}</a> : null}
    </nav>
  );
};

/** A parameter of the route's path (the area's declaration names it; a route always has it). */
export const pathParam = (c: AdminContext, name: string): string => c.req.param(name) ?? "";

/**
 * A CSV download: a byte-order mark (so a spreadsheet reads UTF-8), CRLF line ends, the file's name,
 * and how many rows the selection holds in all (X-Total-Count). Each field of `lines` is already
 * written (domain/csv.ts csvField).
 */
export function csvAnswer(c: AdminContext, name: string, lines: string[], total: number): Response {
  return c.body(`\uFEFF${lines.join("\r\n")}\r\n`, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}"`,
    "X-Total-Count": String(total),
  });
}

