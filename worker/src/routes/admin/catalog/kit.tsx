/** @jsxImportSource hono/jsx */
/**
 * What the Catalog screens share: their sub-navigation (products and the five lookups), the
 * live/archived filter, an id of the path, a failed change as the form shows it, and the form
 * parts the kit has not (a text area, a check box, a group of fields with its error).
 */
import type { Child, FC, PropsWithChildren } from "hono/jsx";
import type { LookupKind } from "../../../contract/catalog-write";
import { ApiError } from "../../../lib/errors";
import { base, describedBy, FieldMessage, stringsOf, type AdminContext } from "../kit/kit";
import { ID_DIGITS, MAX_ID } from "../../../contract/common";

/** The lookups in the order the sub-navigation shows them, with their path under /catalog. */
export const LOOKUP_PATHS: [LookupKind, string][] = [
  ["location", "locations"],
  ["category", "categories"],
  ["accommodation_type", "accommodation-types"],
  ["diet", "diets"],
  ["level", "levels"],
];

/** A positive integer id of the path, or the 404 page. */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!ID_DIGITS.test(value ?? "") || id < 1 || id > MAX_ID) throw new ApiError(404, "not_found", "No such entry.");
  return id;
}

/** `?archived=true` shows the archived entries; anything else the live ones. */
export const archivedView = (c: AdminContext) => c.req.query("archived") === "true";

export const CatalogNav: FC<{ c: AdminContext; current: "products" | LookupKind }> = ({ c, current }) => {
  const t = stringsOf(c);
  const root = `${base(c)}/catalog`;
  return (
    <nav class="subnav" aria-label={t.catalog.sections}>
      <ul>
        <li>
          <a href={root} aria-current={current === "products" ? "page" : undefined}>
            {t.catalog.products}
          </a>
        </li>
        {LOOKUP_PATHS.map(([kind, path]) => (
          <li>
            <a href={`${root}/${path}`} aria-current={current === kind ? "page" : undefined}>
              {t.catalog.lookups[kind].title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
};

/** Live or archived entries: two links, the one shown marked. */
export const ArchivedFilter: FC<{ c: AdminContext; path: string }> = ({ c, path }) => {
  const t = stringsOf(c);
  const archived = archivedView(c);
  return (
    <nav class="subnav filter" aria-label={t.catalog.show}>
      <ul>
        <li>
          <a href={path} aria-current={archived ? undefined : "page"}>
            {t.catalog.live}
          </a>
        </li>
        <li>
          <a href={`${path}?archived=true`} aria-current={archived ? "page" : undefined}>
            {t.catalog.archived}
          </a>
        </li>
      </ul>
    </nav>
  );
};

/** Fields that belong together, with a message for the group as a whole (e.g. `pax`: min above max). */
export const Group: FC<PropsWithChildren<{ legend: Child; id: string; error?: string; hint?: string; class?: string }>> = (p) => (
  <fieldset class={`${p.class ?? "group"}${p.error ? " invalid" : ""}`} id={p.id} aria-describedby={describedBy(p.id, p.hint, p.error)}>
    <legend>{p.legend}</legend>
    {p.hint ? (
      <p id={`${p.id}-hint`} class="hint">
        {p.hint}
      </p>
    ) : null}
    <FieldMessage id={p.id} error={p.error} />
    {p.children}
  </fieldset>
);
