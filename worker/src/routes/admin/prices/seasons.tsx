/** @jsxImportSource hono/jsx */
/**
 * Seasons: their date ranges (segments) and priority; list, create, edit, archive and restore,
 * through manage/catalog/lookups.ts as /private/catalog/seasons does. Segments are rows of two
 * dates: the form always has a few empty rows to add one, and a row left empty is dropped (the
 * service replaces a season's segments whole, keeping the id of each one sent with it).
 */
import type { AdminSeason } from "../../../contract/catalog-write";
import { ApiError } from "../../../lib/errors";
import { createSeason, getSeason, listSeasons, updateSeason } from "../../../manage/catalog/lookups";
import { base, Csrf, done, Field, flashOf, FormError, staffActor, langOf, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";
import { MAX_ID } from "../../../contract/common";

/** Empty rows offered after a season's own ranges. */
const SPARE_ROWS = 3;

interface SeasonForm {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

function seasonId(c: AdminContext): number {
  const id = Number(c.req.param("id"));
  if (!Number.isInteger(id) || id < 1 || id > MAX_ID) throw new ApiError(404, "not_found", `Season ${c.req.param("id")} was not found.`);
  return id;
}

/** The form's fields of a season as stored. */
function valuesOf(s: AdminSeason): Record<string, string> {
  const v: Record<string, string> = { title: s.title, priority: String(s.priority) };
  s.segments.forEach((g, i) => {
    v[`seg_id_${i}`] = String(g.id);
    v[`seg_start_${i}`] = g.start_date;
    v[`seg_end_${i}`] = g.end_date;
  });
  return v;
}

const rowsIn = (v: Record<string, string>) => {
  let n = 0;
  for (const k of Object.keys(v)) {
    const m = /^seg_(?:start|end)_(\d+)$/.exec(k);
    if (m) n = Math.max(n, Number(m[1]) + 1);
  }
  return Math.min(n, 500);
};

/** Title, priority and the date ranges: the same fields to create and to edit. */
const SeasonFields = ({ c, form, prefix }: { c: AdminContext; form: SeasonForm; prefix: string }) => {
  const t = stringsOf(c).prices.seasons;
  const v = form.values ?? {};
  const e = form.errors ?? {};
  const rows = rowsIn(v) + SPARE_ROWS;
  return (
    <>
      <Field id={`${prefix}-title`} name="title" label={t.name} value={v.title} error={e.title} required />
      <Field id={`${prefix}-priority`} name="priority" type="number" inputmode="numeric" label={t.priority} value={v.priority ?? "0"} hint={t.priorityHint} error={e.priority} />
      <fieldset class="segments">
        <legend>{t.dates}</legend>
        <p class="hint">{t.datesHint}</p>
        {e.segments ? <p class="error">{e.segments}</p> : null}
        {Array.from({ length: rows }, (_, i) => (
          <div class="row segment">
            {v[`seg_id_${i}`] ? <input type="hidden" name={`seg_id_${i}`} value={v[`seg_id_${i}`]} /> : null}
            <Field id={`${prefix}-start-${i}`} name={`seg_start_${i}`} type="date" label={t.startLabel(i + 1)} value={v[`seg_start_${i}`]} error={e[`seg_start_${i}`]} />
            <Field id={`${prefix}-end-${i}`} name={`seg_end_${i}`} type="date" label={t.endLabel(i + 1)} value={v[`seg_end_${i}`]} error={e[`seg_end_${i}`]} />
          </div>
        ))}
      </fieldset>
    </>
  );
};

async function renderList(c: AdminContext, create: SeasonForm = {}, status: 200 | 422 = 200) {
  const t = stringsOf(c);
  const ts = t.prices.seasons;
  const seasons = await listSeasons(c.env.DB, c.get("staff").business_id, "all");
  seasons.sort((a, b) => Number(a.archived) - Number(b.archived) || b.priority - a.priority || a.title.localeCompare(b.title));
  const root = `${base(c)}/seasons`;
  const flash = flashOf(c, { created: ts.created, saved: ts.savedMsg, archived: ts.archivedMsg, restored: ts.restoredMsg });
  return c.html(
    <Layout c={c} title={ts.title} flash={flash}>
      <p>{ts.intro}</p>
      <p>
        <a href={`${base(c)}/prices`}>{ts.backToPrices}</a>
      </p>
      {seasons.length === 0 ? (
        <p>{ts.noSeasons}</p>
      ) : (
        <Table
          captionId="seasons-caption"
          caption={ts.title}
          hiddenCaption
          head={
            <tr>
              <th scope="col">{ts.season}</th>
              <th scope="col" class="num">
                {ts.priority}
              </th>
              <th scope="col">{ts.dates}</th>
              <th scope="col">{ts.status}</th>
              <th scope="col">
                <span class="visually-hidden">{ts.archive}</span>
              </th>
            </tr>
          }
        >
          {seasons.map((s) => (
            <tr data-season={s.id}>
              <th scope="row">
                <a href={`${root}/${s.id}`}>{s.title}</a>
              </th>
              <td class="num">{s.priority}</td>
              <td>
                <ul class="plain">
                  {s.segments.map((g) => (
                    <li>
                      {g.start_date} – {g.end_date}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{s.archived ? <span class="badge">{ts.archived}</span> : ts.live}</td>
              <td>
                <ArchiveButton c={c} season={s} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <section>
        <h2 id="create-heading">{ts.create}</h2>
        <form class="stack" method="post" action={root} aria-labelledby="create-heading">
          <Csrf c={c} />
          <FormError message={create.message} />
          <SeasonFields c={c} form={create} prefix="new" />
          <p>
            <button type="submit">{ts.createButton}</button>
          </p>
        </form>
      </section>
    </Layout>,
    status,
  );
}

const ArchiveButton = ({ c, season }: { c: AdminContext; season: AdminSeason }) => {
  const ts = stringsOf(c).prices.seasons;
  return (
    <form class="inline" method="post" action={`${base(c)}/seasons/${season.id}/archive`}>
      <Csrf c={c} />
      <input type="hidden" name="archived" value={season.archived ? "false" : "true"} />
      <button type="submit" class="secondary">
        {season.archived ? ts.restore : ts.archive}
        <span class="visually-hidden"> {season.title}</span>
      </button>
    </form>
  );
};

async function renderEdit(c: AdminContext, form: SeasonForm | null = null, status: 200 | 404 | 422 = 200) {
  const ts = stringsOf(c).prices.seasons;
  const season = await getSeason(c.env.DB, c.get("staff").business_id, seasonId(c));
  const shown: SeasonForm = form ?? { values: valuesOf(season) };
  return c.html(
    <Layout c={c} title={ts.editTitle(season.title)}>
      <p>
        <a href={`${base(c)}/seasons`}>{ts.backToSeasons}</a> · <a href={`${base(c)}/prices`}>{ts.backToPrices}</a>
      </p>
      <p>{season.archived ? <span class="badge">{ts.archived}</span> : ts.live}</p>
      <form class="stack" method="post" action={`${base(c)}/seasons/${season.id}`}>
        <Csrf c={c} />
        <FormError message={shown.message} />
        <SeasonFields c={c} form={shown} prefix="edit" />
        <p>
          <button type="submit">{ts.save}</button>
        </p>
      </form>
      <ArchiveButton c={c} season={season} />
    </Layout>,
    status,
  );
}

export const seasonsPage = (c: AdminContext) => renderList(c);
export const seasonEditPage = (c: AdminContext) => renderEdit(c);

/**
 * The form as the service's input: priority checked here (a form sends text), empty rows dropped;
 * `rowOf[k]` is the form row of the k-th segment sent, to place the service's errors.
 */
function seasonInput(c: AdminContext, form: Record<string, string>) {
  const ts = stringsOf(c).prices.seasons;
  const errors: Record<string, string> = {};
  const priorityText = (form.priority ?? "").trim();
  if (priorityText !== "" && !/^-?\d+$/.test(priorityText)) errors.priority = ts.wholeNumber;
  const segments: { id?: number; start_date: string; end_date: string }[] = [];
  const rowOf: number[] = [];
  for (let i = 0; i < rowsIn(form); i++) {
    const start = (form[`seg_start_${i}`] ?? "").trim();
    const end = (form[`seg_end_${i}`] ?? "").trim();
    if (start === "" && end === "") continue;
    if (start === "" || end === "") {
      errors[start === "" ? `seg_start_${i}` : `seg_end_${i}`] = ts.bothDates;
      continue;
    }
    const id = Number(form[`seg_id_${i}`]);
    segments.push({ ...(Number.isInteger(id) && id > 0 ? { id } : {}), start_date: start, end_date: end });
    rowOf.push(i);
  }
  return { input: { title: form.title ?? "", priority: priorityText === "" ? 0 : Number(priorityText), segments }, rowOf, errors };
}

/** The form field of an error's path: segments.k.start_date at its row; segments.k (start after end) at its end date. */
const seasonField = (rowOf: number[]) => (path: string) => {
  const m = /^segments\.(\d+)(?:\.(start_date|end_date|id))?$/.exec(path);
  if (m) return `seg_${m[2] === "start_date" ? "start" : "end"}_${rowOf[Number(m[1])]}`;
  return path.split(".")[0] || "title";
};

export async function seasonCreate(c: AdminContext) {
  const form = (await readForm(c)).values();
  const { input, rowOf, errors } = seasonInput(c, form);
  if (Object.keys(errors).length) return renderList(c, { values: form, errors, message: stringsOf(c).fixErrors }, 422);
  try {
    await createSeason(c.env, staffActor(c), c.get("staff").business_id, input, c.get("now"));
  } catch (err) {
    const failed = failureOf(err, seasonField(rowOf), { lang: langOf(c) });
    if (!failed) throw err;
    return renderList(c, { values: form, errors: failed.fields, message: failed.message }, 422);
  }
  return done(c, `${base(c)}/seasons`, "created");
}

export async function seasonSave(c: AdminContext) {
  const id = seasonId(c);
  const form = (await readForm(c)).values();
  const { input, rowOf, errors } = seasonInput(c, form);
  if (Object.keys(errors).length) return renderEdit(c, { values: form, errors, message: stringsOf(c).fixErrors }, 422);
  try {
    await updateSeason(c.env, staffActor(c), c.get("staff").business_id, id, input, c.get("now"));
  } catch (err) {
    const failed = failureOf(err, seasonField(rowOf), { lang: langOf(c) });
    if (!failed) throw err;
    return renderEdit(c, { values: form, errors: failed.fields, message: failed.message }, 422);
  }
  return done(c, `${base(c)}/seasons`, "saved");
}

export async function seasonArchive(c: AdminContext) {
  const id = seasonId(c);
  const archived = (await readForm(c)).get("archived") !== "false";
  await updateSeason(c.env, staffActor(c), c.get("staff").business_id, id, { archived }, c.get("now"));
  return done(c, `${base(c)}/seasons`, archived ? "archived" : "restored");
}
