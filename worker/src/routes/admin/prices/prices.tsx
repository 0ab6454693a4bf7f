/** @jsxImportSource hono/jsx */
/**
 * Prices: a grid of products (rows) by seasons (columns), each cell the product's rate for that
 * season in the business's default currency, with the base rate ("All seasons", season_id null)
 * first. One form, one Save; it works without script.
 *
 * The grid shows each product's rate for one item (min_qty 1) of each live season. Saving builds
 * each changed product's whole rate list from its current rates plus the grid's edits and hands
 * them all to manage/catalog/products.ts updateProducts (one batch: every row or none; per product
 * the checks, audit entry and event of PATCH /private/catalog/products/{id} {rates}):
 * quantity tiers (min_qty > 1) and the rates of archived seasons, which the grid does not show,
 * are kept as they were. Every cell is checked before anything is saved: a bad cell is shown at
 * the cell (422) and no product changes.
 */
import type { AdminProduct, AdminSeason } from "../../../contract/catalog-write";
import { defaultCurrency, productView, seasonView, toMinor } from "../../../domain/catalog-write";
import { minorDigits } from "../../../domain/money";
import type { RatePer, RateUnit } from "../../../domain/pricing";
import { ApiError, type FieldError } from "../../../lib/errors";
import { updateProducts } from "../../../manage/catalog/products";
import { readState } from "../../../manage/core";
import { base, Csrf, done, FieldMessage, flashOf, FormError, staffActor, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { readForm } from "../kit/form";

const UNITS: RateUnit[] = ["person", "unit", "room"];
const PERS: RatePer[] = ["night", "day", "stay", "hour"];
type Rate = AdminProduct["rates"][number];
/** A column of the grid: "base" (season_id null) or a season's id. */
type Column = "base" | number;
const seasonOf = (col: Column) => (col === "base" ? null : col);
const colOf = (seasonId: number | null): Column => (seasonId === null ? "base" : seasonId);
const cellName = (productId: number, col: Column) => `rate_${productId}_${col}`;
const chargeName = (productId: number) => `charge_${productId}`;
const chargeOf = (r: { unit: RateUnit; per: RatePer }) => `${r.unit}/${r.per}`;
/** The rate a cell shows: the one for a single item of that season. */
const cellRate = (rates: Rate[], col: Column) => rates.find((r) => r.season_id === seasonOf(col) && r.min_qty === 1);

/** How a product's row is charged: its base rate's way, else its first rate's, else what suits its type. */
function rowCharge(p: AdminProduct): string {
  const shown = cellRate(p.rates, "base") ?? p.rates.find((r) => r.min_qty === 1) ?? p.rates[0];
  if (shown) return chargeOf(shown);
  if (p.type === "accommodation" || p.type === "package") return "person/night";
  if (p.type === "rental") return "unit/day";
  return "person/stay";
}

interface Grid {
  currency: string;
  digits: number;
  products: AdminProduct[];
  seasons: AdminSeason[];
  archivedSeasons: Map<number, string>;
}

/** What the grid shows, from one read of the catalog: live products, live seasons (highest priority first). */
async function readGrid(c: AdminContext): Promise<Grid> {
  const state = await readState(c.env.DB, c.get("staff").business_id);
  const currency = defaultCurrency(state.settings)?.iso_code ?? "EUR";
  const seasons = state.seasons.filter((s) => s.archived_at === null).map(seasonView);
  seasons.sort((a, b) => b.priority - a.priority || a.title.localeCompare(b.title) || a.id - b.id);
  return {
    currency,
    digits: minorDigits(currency),
    products: state.products.filter((p) => p.archived_at === null).map((p) => productView(p, currency)),
    seasons,
    archivedSeasons: new Map(state.seasons.filter((s) => s.archived_at !== null).map((s) => [s.id, s.title])),
  };
}

interface GridForm {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

async function render(c: AdminContext, form: GridForm = {}, status: 200 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const tp = t.prices;
  const grid = await readGrid(c);
  const columns: { col: Column; title: string; priority?: number }[] = [{ col: "base", title: tp.base }, ...grid.seasons.map((s) => ({ col: s.id as Column, title: s.title, priority: s.priority }))];
  const amount = (n: number) => n.toFixed(grid.digits);
  const seasonTitle = (id: number | null) => (id === null ? tp.base : (grid.seasons.find((s) => s.id === id)?.title ?? `${grid.archivedSeasons.get(id) ?? id} (${tp.archivedSeason})`));
  const chargeOptions = UNITS.flatMap((u) => PERS.map((p) => [`${u}/${p}`, `${tp.units[u]} ${tp.pers[p]}`] as const));
  const values = form.values ?? {};
  const errors = form.errors ?? {};
  const flash = flashOf(c, { saved: tp.saved(Number(c.req.query("n") ?? 0)) });
  return c.html(
    <Layout c={c} title={tp.title} current="prices" flash={flash}>
      <p>{tp.intro(grid.currency)}</p>
      <p>
        <a href={`${base(c)}/seasons`}>{tp.seasonsLink}</a>
      </p>
      {grid.products.length === 0 ? (
        <p>{tp.noProducts}</p>
      ) : (
        <form method="post" action={`${base(c)}/prices`} class="price-grid-form">
          <Csrf c={c} />
          <FormError message={form.message} />
          <p class="hint" id="price-grid-hint">
            {grid.seasons.length ? tp.emptyHint : tp.noSeasons} {tp.kept} {tp.scrollHint}
          </p>
          <Table
            captionId="price-grid-caption"
            caption={tp.caption(grid.currency)}
            hiddenCaption
            describedBy="price-grid-hint"
            class="price-grid"
            head={
              <tr>
                <th scope="col">{tp.product}</th>
                {columns.map((col) => (
                  <th scope="col" class="num">
                    {col.title}
                    {col.priority !== undefined ? <small class="hint">{tp.priority(col.priority)}</small> : <small class="hint">{grid.currency}</small>}
                  </th>
                ))}
                {/* How a row is charged comes after its prices: on a phone the first prices are on screen beside the product. */}
                <th scope="col">{tp.charge}</th>
              </tr>
            }
          >
            {grid.products.map((p) => {
              const charge = values[chargeName(p.id)] ?? rowCharge(p);
              const tiers = p.rates.filter((r) => r.min_qty > 1 || (r.season_id !== null && grid.archivedSeasons.has(r.season_id)));
              const chargeError = errors[chargeName(p.id)];
              return (
                <tr data-product={p.id}>
                  <th scope="row">
                    {p.backoffice_title || p.title}
                    {tiers.length ? (
                      <small class="hint tiers">
                        {tp.tiers} {tiers.map((r) => tp.tier(r.min_qty, amount(r.amount), seasonTitle(r.season_id))).join("; ")}
                      </small>
                    ) : null}
                  </th>
                  {columns.map(({ col, title }) => {
                    const name = cellName(p.id, col);
                    const rate = cellRate(p.rates, col);
                    const error = errors[name];
                    const differs = rate && chargeOf(rate) !== rowCharge(p);
                    const hintId = differs ? `${name}-charge` : "";
                    const described = [hintId, error ? `${name}-error` : ""].filter(Boolean).join(" ") || undefined;
                    return (
                      <td class={`num${error ? " invalid" : ""}`}>
                        <label class="visually-hidden" for={name}>
                          {tp.cellLabel(p.backoffice_title || p.title, title)}
                        </label>
                        <input
                          id={name}
                          name={name}
                          type="text"
                          inputmode="decimal"
                          autocomplete="off"
                          size={8}
                          value={values[name] ?? (rate ? amount(rate.amount) : "")}
                          aria-invalid={error ? "true" : undefined}
                          aria-describedby={described}
                        />
                        {differs ? (
                          <small id={hintId} class="hint">
                            {tp.units[rate.unit]} {tp.pers[rate.per]}
                          </small>
                        ) : null}
                        <FieldMessage id={name} error={error} />
                      </td>
                    );
                  })}
                  <td class={chargeError ? "invalid" : undefined}>
                    <label class="visually-hidden" for={chargeName(p.id)}>
                      {tp.chargeLabel(p.backoffice_title || p.title)}
                    </label>
                    <select id={chargeName(p.id)} name={chargeName(p.id)} aria-invalid={chargeError ? "true" : undefined} aria-describedby={chargeError ? `${chargeName(p.id)}-error` : undefined}>
                      {chargeOptions.map(([value, label]) => (
                        <option value={value} selected={value === charge}>
                          {label}
                        </option>
                      ))}
                    </select>
                    {chargeError ? (
                      <small id={`${chargeName(p.id)}-error`} class="error">
                        {chargeError}
                      </small>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </Table>
          <p>
            <button type="submit">{tp.save}</button>
          </p>
        </form>
      )}
    </Layout>,
    status,
  );
}

export const pricesPage = (c: AdminContext) => render(c);

/** A cell's text as an amount: "" is no rate; "45", "45.5" and "45,50" are amounts; anything else is an error message. */
function parseCell(text: string, currency: string, t: ReturnType<typeof stringsOf>["prices"]): { amount: number | null } | { error: string } {
  const s = text.trim().replace(/^(-?\d+),(\d+)$/, "$1.$2");
  if (s === "") return { amount: null };
  if (!/^-?\d+(\.\d+)?$/.test(s)) return { error: t.notAmount };
  const n = Number(s);
  if (n < 0) return { error: t.negative };
  if (n > 100_000_000) return { error: t.tooLarge };
  if (toMinor(n, currency) === null) return { error: t.tooFine(minorDigits(currency)) };
  return { amount: n };
}

/** One product's rates after the grid's edits, with the column of each (for errors the service names by index). */
interface Edit {
  product: AdminProduct;
  rates: Rate[];
  columns: (Column | null)[];
}

export async function pricesSave(c: AdminContext) {
  const t = stringsOf(c);
  const form = (await readForm(c)).values();
  const grid = await readGrid(c);
  const errors: Record<string, string> = {};
  const edits: Edit[] = [];
  const columns: Column[] = ["base", ...grid.seasons.map((s) => s.id)];
  for (const p of grid.products) {
    // A product or a season made after the page was drawn has no field: it is left as it is.
    const sentCharge = form[chargeName(p.id)];
    const before = rowCharge(p);
    if (sentCharge !== undefined && !/^(person|unit|room)\/(stay|night|day|hour)$/.test(sentCharge)) errors[chargeName(p.id)] = t.prices.badCharge;
    const charge = sentCharge !== undefined && !errors[chargeName(p.id)] ? sentCharge : before;
    const chargeChanged = charge !== before;
    const [unit, per] = charge.split("/") as [RateUnit, RatePer];
    const rates = p.rates.map((r) => ({ ...r }));
    for (const col of columns) {
      const name = cellName(p.id, col);
      if (form[name] === undefined) continue;
      const cell = parseCell(form[name], grid.currency, t.prices);
      if ("error" in cell) {
        errors[name] = cell.error;
        continue;
      }
      const i = rates.findIndex((r) => r.season_id === seasonOf(col) && r.min_qty === 1);
      if (cell.amount === null) {
        if (i >= 0) rates.splice(i, 1);
      } else if (i >= 0) {
        // A changed "charged" applies to every cell of the row; otherwise each rate keeps its own.
        rates[i] = { ...rates[i], amount: cell.amount, ...(chargeChanged ? { unit, per } : {}) };
      } else {
        rates.push({ season_id: seasonOf(col), amount: cell.amount, unit, per, min_qty: 1 });
      }
    }
    const same = rates.length === p.rates.length && rates.every((r, i) => toMinor(r.amount, grid.currency) === toMinor(p.rates[i].amount, grid.currency) && r.season_id === p.rates[i].season_id && r.unit === p.rates[i].unit && r.per === p.rates[i].per && r.min_qty === p.rates[i].min_qty);
    if (!same) edits.push({ product: p, rates, columns: rates.map((r) => (r.min_qty === 1 ? colOf(r.season_id) : null)) });
  }
  if (Object.keys(errors).length) return render(c, { values: form, errors, message: t.fixErrors }, 422);

  // Every changed row in one batch: the grid is saved whole or not at all.
  try {
    await updateProducts(c.env, staffActor(c), c.get("staff").business_id, edits.map((e) => ({ id: e.product.id, patch: { rates: e.rates } })), c.get("now"));
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 409)) throw err;
    // The service's own check names rates as <product id>.rates.<index>: at the cell where it can be placed.
    for (const e of (err.extra.errors ?? []) as FieldError[]) {
      const m = /^(\d+)\.rates\.(\d+)/.exec(e.path);
      const edit = m ? edits.find((x) => x.product.id === Number(m[1])) : undefined;
      const col = edit ? edit.columns[Number(m![2])] : null;
      if (edit && col !== null && col !== undefined) errors[cellName(edit.product.id, col)] ??= e.message;
    }
    return render(c, { values: form, errors, message: err.message }, err.status as 409 | 422);
  }
  return done(c, `${base(c)}/prices?n=${edits.length}`, "saved");
}
