/** @jsxImportSource hono/jsx */
/** The Audit log (owners, managers): who changed what, through the back office or the API. */
import { listAuditEntries } from "../../../db/audit-log";
import { base, fmtDateTime, Pager, Select, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";

const ENTITIES = ["booking", "guest", "booker", "product", "season", "settings", "inventory", "location", "category", "accommodation_type", "diet", "level", "api_key", "webhook", "staff", "email"];

/** A value as the owner reads it: text as is, nothing as "—", anything else as compact JSON. */
function shown(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (typeof v === "string") return v;
  return JSON.stringify(v).slice(0, 200);
}

/** The fields an entry changed, each with its value before and after (only those that differ). */
export function changesOf(before: string | null, after: string | null): [string, string, string][] {
  const parse = (s: string | null): Record<string, unknown> => {
    if (!s) return {};
    try {
      const v = JSON.parse(s) as unknown;
      return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
    } catch {
      return {};
    }
  };
  const b = parse(before);
  const a = parse(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k])).map((k) => [k, shown(b[k]), shown(a[k])]);
}

export async function auditPage(c: AdminContext) {
  const t = stringsOf(c);
  const entity = c.req.query("entity");
  const page = Math.min(1_000_000, Math.max(1, Number(c.req.query("page")) || 1));
  const limit = 50;
  const { rows, total } = await listAuditEntries(c.env.DB, c.get("staff").business_id, { entity: entity || undefined, page, limit });
  return c.html(
    <Layout c={c} title={t.audit.title} current="audit">
      <form class="row" method="get" action={`${base(c)}/audit`}>
        <Select name="entity" label={t.audit.entity} value={entity ?? ""} options={[["", t.audit.all], ...ENTITIES.map((e) => [e, e] as [string, string])]} />
        <button type="submit">{t.apply}</button>
      </form>
      <Table
        label={t.audit.title}
        head={
          <tr>
            <th scope="col">{t.audit.at}</th>
            <th scope="col">{t.audit.who}</th>
            <th scope="col">{t.audit.what}</th>
            <th scope="col">{t.audit.changes}</th>
          </tr>
        }
      >
        {rows.map((r) => (
          <tr>
            <td>{fmtDateTime(r.at)}</td>
            <td>
              {r.actor_name} <small>({r.actor_kind})</small>
            </td>
            <td>{r.summary}</td>
            <td>
              {changesOf(r.before, r.after).map(([field, was, now]) => (
                <div>
                  <b>{field}</b>: {was} → {now}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </Table>
      {rows.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={page} limit={limit} total={total} />
    </Layout>,
  );
}
