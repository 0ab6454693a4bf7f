/** @jsxImportSource hono/jsx */
/**
 * The catalog's lookups, one page each (/catalog/locations, /categories, /accommodation-types,
 * /diets, /levels): the live entries (or the archived ones), each with its own small form to
 * rename it (and its kind, description, abbreviation) and a button to archive or restore it; a
 * form to add one. Every change is manage/catalog/lookups.ts's, as the private API's routes make it.
 */
import type { AdminLookup, LookupCreate, LookupKind } from "../../../contract/catalog-write";
import { createLookup, listLookups, updateLookup } from "../../../manage/catalog/lookups";
import { archivedView, ArchivedFilter, CatalogNav, idParam, LOOKUP_PATHS } from "./kit";
import type { AdminRoute } from "../kit/area";
import { base, Csrf, done, Field, FieldMessage, flashOf, FormError, Select, staffActor, langOf, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { failureOf, readForm } from "../kit/form";

const TEXTED = (kind: LookupKind) => kind === "diet" || kind === "level";

interface Failed {
  /** The form that failed: "new", or the id of the entry. */
  target: "new" | number;
  values: Record<string, string>;
  fields: Record<string, string>;
  message: string;
}

/** The posted fields as the API's body: a blank ref is made from the title (new) or kept. */
function lookupBody(kind: LookupKind, form: Record<string, string>): LookupCreate {
  const body: Record<string, unknown> = { title: form.title ?? "" };
  if ((form.ref ?? "").trim() !== "") body.ref = form.ref.trim();
  if (kind === "category" && form.kind) body.kind = form.kind;
  if (TEXTED(kind)) {
    body.description = form.description ?? "";
    body.abbreviation = (form.abbreviation ?? "").trim() || null;
  }
  return body as unknown as LookupCreate;
}

/** The fields of one entry's form (or the new one's), ids made unique by `key`. */
function LookupFields({ c, kind, prefix, values, fields }: { c: AdminContext; kind: LookupKind; prefix: string; values: Record<string, string>; fields: Record<string, string> }) {
  const t = stringsOf(c).catalog;
  const id = (name: string) => `f-${prefix}-${name}`;
  return (
    <>
      <Field id={id("title")} name="title" label={t.titleLabel} value={values.title} error={fields.title} required />
      <Field id={id("ref")} name="ref" label={t.ref} value={values.ref} error={fields.ref} autocomplete="off" />
      {kind === "category" ? (
        <Select
          id={id("kind")}
          name="kind"
          label={t.kind}
          value={values.kind ?? "frontoffice"}
          error={fields.kind}
          options={[
            ["frontoffice", t.kinds.frontoffice],
            ["backoffice", t.kinds.backoffice],
          ]}
        />
      ) : null}
      {TEXTED(kind) ? (
        <>
          <Field id={id("abbreviation")} name="abbreviation" label={t.abbreviation} value={values.abbreviation} error={fields.abbreviation} />
          <div class={`field wide${fields.description ? " invalid" : ""}`}>
            <label for={id("description")}>{t.description}</label>
            <textarea id={id("description")} name="description" rows={2} aria-invalid={fields.description ? "true" : undefined} aria-describedby={fields.description ? `${id("description")}-error` : undefined}>
              {values.description ?? ""}
            </textarea>
            <FieldMessage id={id("description")} error={fields.description} />
          </div>
        </>
      ) : null}
    </>
  );
}

const valuesOf = (l: AdminLookup): Record<string, string> => ({ title: l.title, ref: l.ref, kind: l.kind ?? "", description: l.description ?? "", abbreviation: l.abbreviation ?? "" });

async function render(c: AdminContext, kind: LookupKind, path: string, failed?: Failed, status: 200 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const names = t.catalog.lookups[kind];
  const archived = archivedView(c);
  const entries = await listLookups(c.env.DB, c.get("staff").business_id, kind, archived ? "true" : "false");
  const root = `${base(c)}/catalog/${path}`;
  const flash = flashOf(c, { created: t.catalog.lookupCreated, saved: t.catalog.lookupSaved, archived: t.catalog.lookupArchived, restored: t.catalog.lookupRestored });
  const at = (target: "new" | number) => (failed?.target === target ? failed : undefined);
  const fresh = at("new");
  return c.html(
    <Layout c={c} title={names.title} current="catalog" flash={flash}>
      <CatalogNav c={c} current={kind} />
      <p class="hint">{names.intro}</p>
      {archived ? null : (
        <section aria-labelledby="add-heading">
          <h2 id="add-heading">{names.add}</h2>
          <form class="row" method="post" action={root} aria-labelledby="add-heading">
            <Csrf c={c} />
            <FormError message={fresh ? fresh.message : undefined} />
            <LookupFields c={c} kind={kind} prefix="new" values={fresh?.values ?? {}} fields={fresh?.fields ?? {}} />
            <button type="submit">{t.catalog.add}</button>
          </form>
        </section>
      )}
      <h2 id="list-heading">{names.title}</h2>
      <ArchivedFilter c={c} path={root} />
      {entries.length ? (
        <ul class="entries" aria-labelledby="list-heading">
          {entries.map((l) => {
            const mine = at(l.id);
            return (
              <li data-entry={l.ref}>
                <form class="row" method="post" action={`${root}/${l.id}`}>
                  <Csrf c={c} />
                  <fieldset class="row">
                    <legend>
                      {l.title} <span class="hint">({l.ref})</span>
                    </legend>
                    {mine ? <FormError message={mine.message} /> : null}
                    <LookupFields c={c} kind={kind} prefix={String(l.id)} values={mine?.values ?? valuesOf(l)} fields={mine?.fields ?? {}} />
                    <button type="submit" class="secondary">
                      {t.save}
                      <span class="visually-hidden">: {l.title}</span>
                    </button>
                  </fieldset>
                </form>
                <form class="inline" method="post" action={`${root}/${l.id}/${l.archived ? "restore" : "archive"}`}>
                  <Csrf c={c} />
                  <button type="submit" class="link">
                    {l.archived ? t.catalog.restoreEntry : t.catalog.archiveEntry}
                    <span class="visually-hidden">: {l.title}</span>
                  </button>{" "}
                  <small class="hint">{l.archived ? t.catalog.entryArchivedHint : t.catalog.archiveEntryHint}</small>
                </form>
              </li>
            );
          })}
        </ul>
      ) : (
        <p>{archived ? t.catalog.noneArchived : t.catalog.noneYet}</p>
      )}
    </Layout>,
    status,
  );
}

/** An error's field: the first part of its path (`title`, `ref`). */
const lookupField = (path: string) => path.split(".")[0];

/** The five lookups' routes: a page each, its create, and each entry's save, archive and restore. */
export const lookupRoutes: AdminRoute[] = LOOKUP_PATHS.flatMap(([kind, path]): AdminRoute[] => {
  const page = (c: AdminContext) => `${base(c)}/catalog/${path}`;
  const create = async (c: AdminContext) => {
    const form = (await readForm(c)).values();
    try {
      await createLookup(c.env, staffActor(c), c.get("staff").business_id, kind, lookupBody(kind, form), c.get("now"));
    } catch (err) {
      const failed = failureOf(err, lookupField, { lang: langOf(c) });
      if (!failed) throw err;
      return render(c, kind, path, { target: "new", values: form, fields: failed.status === 422 ? failed.fields : {}, message: failed.status === 422 ? stringsOf(c).fixErrors : failed.message }, failed.status);
    }
    return done(c, page(c), "created");
  };
  const save = async (c: AdminContext) => {
    const id = idParam(c.req.param("id"));
    const form = (await readForm(c)).values();
    try {
      await updateLookup(c.env, staffActor(c), c.get("staff").business_id, kind, id, lookupBody(kind, form), c.get("now"));
    } catch (err) {
      const failed = failureOf(err, lookupField, { lang: langOf(c) });
      if (!failed) throw err;
      return render(c, kind, path, { target: id, values: form, fields: failed.status === 422 ? failed.fields : {}, message: failed.status === 422 ? stringsOf(c).fixErrors : failed.message }, failed.status);
    }
    return done(c, page(c), "saved");
  };
  const archive = (action: "archive" | "restore") => async (c: AdminContext) => {
    const id = idParam(c.req.param("id"));
    try {
      await updateLookup(c.env, staffActor(c), c.get("staff").business_id, kind, id, { archived: action === "archive" }, c.get("now"));
    } catch (err) {
      const failed = failureOf(err, lookupField, { lang: langOf(c) });
      if (!failed) throw err;
      const entry = (await listLookups(c.env.DB, c.get("staff").business_id, kind, "all")).find((l) => l.id === id);
      return render(c, kind, path, { target: id, values: entry ? valuesOf(entry) : {}, fields: {}, message: failed.message }, failed.status);
    }
    return done(c, page(c), action === "archive" ? "archived" : "restored");
  };
  return [
    { method: "get", path: `/:business/catalog/${path}`, permission: "catalog", handler: (c) => render(c, kind, path) },
    { method: "post", path: `/:business/catalog/${path}`, permission: "catalog", handler: create },
    { method: "post", path: `/:business/catalog/${path}/:id`, permission: "catalog", handler: save },
    { method: "post", path: `/:business/catalog/${path}/:id/archive`, permission: "catalog", handler: archive("archive") },
    { method: "post", path: `/:business/catalog/${path}/:id/restore`, permission: "catalog", handler: archive("restore") },
  ];
});
