/** @jsxImportSource hono/jsx */
/**
 * Catalog (owners and managers, permission `catalog`): the products by type, live or archived,
 * each linked to its editor, with a "new" link per type; the lookups' pages beside them in the
 * catalog's own navigation. Every change goes through manage/catalog/ as the private API's
 * /private/catalog/... routes make it (the same checks, audit entry and webhook event), with the
 * staff user as the actor. Prices and seasons are the Prices screen's; inventory, timeslots and
 * blocked dates the product's Inventory screen's.
 *
 *   /catalog                         products by type (?archived=true: the archived ones)
 *   /catalog/products/new?type=...   a new product of a type
 *   /catalog/products/:id            its editor; POST saves; /archive, /restore
 *   /catalog/locations, /categories, /accommodation-types, /diets, /levels   the lookups
 */
import { ProductType } from "../../../contract/common";
import { listLookups } from "../../../manage/catalog/lookups";
import { listProducts } from "../../../manage/catalog/products";
import { archivedView, ArchivedFilter, CatalogNav } from "./kit";
import { base, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";

export async function productsPage(c: AdminContext) {
  const t = stringsOf(c);
  const tc = t.catalog;
  const businessId = c.get("staff").business_id;
  const archived = archivedView(c);
  const [products, locations] = await Promise.all([listProducts(c.env.DB, businessId, { archived: archived ? "true" : "false" }), listLookups(c.env.DB, businessId, "location", "all")]);
  const place = new Map(locations.map((l) => [l.id, l.title]));
  const root = `${base(c)}/catalog`;
  return c.html(
    <Layout c={c} title={tc.title} current="catalog">
      <CatalogNav c={c} current="products" />
      <p class="hint">{tc.intro}</p>
      <ArchivedFilter c={c} path={root} />
      {ProductType.options.map((type) => {
        const list = products.filter((p) => p.type === type);
        const heading = `type-${type}`;
        return (
          <section data-type={type}>
            <div class="section-head">
              <h2 id={heading}>{tc.types[type]}</h2>
              <a class="button secondary" href={`${root}/products/new?type=${type}`}>
                {tc.newOf(tc.typeOne[type])}
              </a>
            </div>
            {list.length ? (
              <Table
                labelledBy={heading}
                head={
                  <tr>
                    <th scope="col">{tc.colTitle}</th>
                    <th scope="col">{tc.colRef}</th>
                    <th scope="col">{tc.colLocation}</th>
                    <th scope="col">{tc.colFront}</th>
                    <th scope="col" class="num">
                      {tc.colCapacity}
                    </th>
                  </tr>
                }
              >
                {list.map((p) => (
                  <tr data-product={p.id}>
                    <td>
                      <a href={`${root}/products/${p.id}`}>{p.backoffice_title || p.title}</a>
                      {p.backoffice_title && p.backoffice_title !== p.title ? <div class="hint">{p.title}</div> : null}
                    </td>
                    <td>{p.ref}</td>
                    <td>{p.location_id === null ? "" : (place.get(p.location_id) ?? "")}</td>
                    <td>{p.archived ? tc.isArchived : p.listed ? tc.listed : tc.notListed}</td>
                    <td class="num">{p.capacity === null ? tc.unlimited : p.type === "accommodation" ? tc.perNight(p.capacity) : p.capacity}</td>
                  </tr>
                ))}
              </Table>
            ) : (
              <p>{archived ? tc.noneArchived : tc.noneYet}</p>
            )}
          </section>
        );
      })}
    </Layout>,
  );
}
