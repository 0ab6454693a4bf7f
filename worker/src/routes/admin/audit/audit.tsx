/** @jsxImportSource hono/jsx */
/** The Audit log (owners, managers): who changed what, through the back office or the API. */
import { listAuditEntries } from "../../../db/audit-log";
import { base, fmtDateTime, Pager, Select, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";

const ENTITIES = ["booking", "guest", "booker", "api_key", "webhook", "staff", "inventory"];

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
          </tr>
        ))}
      </Table>
      {rows.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={page} limit={limit} total={total} />
    </Layout>,
  );
}
