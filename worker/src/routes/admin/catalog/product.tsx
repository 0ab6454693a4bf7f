/** @jsxImportSource hono/jsx */
/**
 * The product editor (/catalog/products/new?type=..., /catalog/products/:id): every field of
 * ProductCreate / ProductPatch but the rates (the Prices screen) and the timeslots and inventory
 * (the product's Inventory screen), in one form. A package's groups and items are rows of that
 * form: blank rows to fill, a "remove" box on each, and a submit that shows one more row
 * (nothing saved), so it all works without script and the package is checked whole, as the API
 * replaces it whole. Saving calls manage/catalog/products.ts; its 422 is shown at each field with
 * what was typed kept, its 409 as the form's message.
 */
import type { AdminLookup, AdminProduct } from "../../../contract/catalog-write";
import { ProductType } from "../../../contract/common";
import { ApiError } from "../../../lib/errors";
import { listLookups } from "../../../manage/catalog/lookups";
import { createProduct, getProduct, listProducts, updateProduct } from "../../../manage/catalog/products";
import { getSettings } from "../../../manage/settings";
import { editorKeys, isOn, ITEM_ROLES, newProductValues, one, editorField, productBody, productValues, rowsOf, WEEKDAYS, BLANK_GROUPS, BLANK_ITEMS, DEPOSIT_CHOICES, type Values } from "./form";
import { CatalogNav, Group, idParam } from "./kit";
import { failureOf, readForm } from "../kit/form";
import { base, Check, Csrf, done, fid, Field, flashOf, Select, langOf, staffActor, stringsOf, TextArea, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import type { Strings } from "../strings";

interface Failed {
  status: 409 | 422;
  message: string;
  fields: Record<string, string>;
  unplaced: string[];
}

interface EditorState {
  type: string;
  product?: AdminProduct;
  values: Values;
  failed?: Failed;
  /** A message of the re-rendered form (one more row added). */
  note?: string;
}

function languageName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What the editor needs besides the product: languages, currency, the lookups and the other products. */
async function editorData(c: AdminContext) {
  const db = c.env.DB;
  const businessId = c.get("staff").business_id;
  const [settings, products, locations, categories, types] = await Promise.all([
    getSettings(db, businessId),
    listProducts(db, businessId, { archived: "all" }),
    listLookups(db, businessId, "location", "all"),
    listLookups(db, businessId, "category", "all"),
    listLookups(db, businessId, "accommodation_type", "all"),
  ]);
  const currency = settings.currencies.find((x) => x.default)?.iso_code ?? "EUR";
  return { settings, products, locations, categories, types, currency, languages: settings.languages.filter((l) => l !== settings.default_language) };
}

/** The choices of a reference: live entries, and the one chosen now even if archived (so it is not lost unseen). */
function choices(t: Strings, list: AdminLookup[], chosen: string): [string, string][] {
  return [
    ["", t.catalog.none],
    ...list.filter((l) => !l.archived || String(l.id) === chosen).map((l): [string, string] => [String(l.id), l.archived ? `${l.title} (${t.catalog.isArchived})` : l.title]),
  ];
}

/** How a package item is priced: its product's base rate (the first tier), from the Prices screen. */
function pricing(t: Strings, p: AdminProduct | undefined, currency: string): string | null {
  if (!p) return null;
  const name = p.backoffice_title || p.title;
  const baseRate = p.rates.find((r) => r.season_id === null);
  if (!baseRate) return p.rates.length ? t.catalog.pricedAt(name, t.catalog.seasonal) : t.catalog.noRate(name);
  let amount = `${baseRate.amount} ${currency}`;
  try {
    amount = new Intl.NumberFormat(t.lang, { style: "currency", currency }).format(baseRate.amount);
  } catch {
    /* an unknown code: the number and the code */
  }
  return t.catalog.pricedAt(name, t.catalog.rate(amount, t.catalog.rateUnits[baseRate.unit] ?? baseRate.unit, t.catalog.ratePers[baseRate.per] ?? baseRate.per));
}

/** The name of a field (or group) of the editor, as its label says it: for the list of errors at the top. */
function fieldName(tc: Strings["catalog"], key: string, lang: string): string {
  const names: Record<string, string> = {
    title: tc.titleLabel,
    backoffice_title: tc.staffTitle,
    ref: tc.ref,
    description: tc.description,
    extended_description: tc.longDescription,
    "image.small": tc.imageSmall,
    "image.medium": tc.imageMedium,
    "image.large": tc.imageLarge,
    location_id: tc.location,
    backoffice_category_id: tc.staffCategory,
    frontoffice_category_id: tc.frontCategory,
    is_promoted: tc.frontLegend,
    duration: tc.durationLegend,
    "duration.unit": tc.unit,
    "duration.default": tc.lengthDefault,
    "duration.min": tc.minStay,
    "duration.max": tc.maxStay,
    "duration.is_flexible": tc.durationLegend,
    "duration.variants": tc.variants,
    allowed_checkin_days: tc.checkinDays,
    default_start_time: tc.startTime,
    pax: tc.guestsLegend,
    "pax.min": tc.paxMin,
    "pax.max": tc.paxMax,
    capacity: tc.capacity,
    accommodation_type_id: tc.accommodationType,
    accommodation: tc.roomsLegend,
    "accommodation.rooms": tc.rooms,
    "accommodation.beds_per_room": tc.bedsPerRoom,
    "accommodation.is_private": tc.soldAs,
    "accommodation.gender": tc.gender,
    "accommodation.srs": tc.srsLegend,
    "accommodation.srs.charge": tc.srsLegend,
    "accommodation.srs.fixed": tc.srsFixed,
    package: tc.packageLegend,
    "package.accommodation_ids": tc.roomTypes,
    "package.groups": tc.groups,
    "package.items": tc.items,
    payment_policy: tc.paymentLegend,
    "payment_policy.deposit": tc.depositLegend,
    "payment_policy.balance_due_days": tc.balanceDueDays,
  };
  if (names[key]) return names[key];
  const parts = key.split(".");
  if (parts[0] === "translations") return [tc.translationOf(languageName(parts[1], lang)), parts[2] ? names[parts[2]] : ""].filter(Boolean).join(" › ");
  const field = { name: tc.groupName, product_id: tc.product, role: tc.role, group: tc.group, qty: tc.qtyDefault, is_configurable_dates: tc.guestPicksDays }[parts[3] ?? ""] ?? "";
  const row = parts[1] === "items" ? tc.itemRow(Number(parts[2]) + 1) : tc.groupRow(Number(parts[2]) + 1);
  return [row, field].filter(Boolean).join(" › ");
}

async function renderEditor(c: AdminContext, s: EditorState, status: 200 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const tc = t.catalog;
  const d = await editorData(c);
  const v = s.values;
  const val = (name: string) => one(v, name);
  const err = (name: string) => s.failed?.fields[name];
  const root = base(c);
  const p = s.product;
  const type = s.type;
  const itemRows = rowsOf(v, "items", BLANK_ITEMS);
  const groupRows = rowsOf(v, "groups", BLANK_GROUPS);
  const groupNames = [...new Set(Array.from({ length: groupRows }, (_, i) => val(`package.groups.${i}.name`).trim()).filter(Boolean))];
  const byId = new Map(d.products.map((x) => [x.id, x]));
  const flash = s.note ?? flashOf(c, { created: tc.created, saved: tc.saved, archived: tc.productArchived, restored: tc.productRestored });
  const title = p ? tc.editTitle(p.backoffice_title || p.title) : tc.newOf(tc.typeOne[type]);
  const num = (name: string, label: string, extra: { hint?: string; required?: boolean } = {}) => (
    <Field id={fid(name)} name={name} type="number" inputmode="numeric" label={label} value={val(name)} error={err(name)} hint={extra.hint} required={extra.required} />
  );
  const itemChoices = (chosen: string): [string, string][] => [
    ["", tc.none],
    ...d.products
      .filter((x) => x.type !== "package" && x.id !== p?.id && (!x.archived || String(x.id) === chosen))
      .map((x): [string, string] => [String(x.id), `${x.backoffice_title || x.title} (${tc.typeOne[x.type]}${x.archived ? `, ${tc.isArchived}` : ""})`]),
  ];
  const accommodations = d.products.filter((x) => x.type === "accommodation" && (!x.archived || (v["package.accommodation_ids"] ?? []).includes(String(x.id))));
  return c.html(
    <Layout c={c} title={title} current="catalog" flash={flash}>
      <CatalogNav c={c} current="products" />
      <p>
        <a href={`${root}/catalog`}>{tc.allProducts}</a>
      </p>
      {p ? (
        <div class="product-facts">
          <p>
            {tc.facts(tc.typeOne[p.type], p.ref)} · <strong>{p.archived ? tc.archivedNow : p.listed ? tc.listedNow : tc.notListedNow}</strong>
          </p>
          <ul class="links">
            <li>
              <a href={`${root}/prices`}>{tc.pricesLink}</a>
            </li>
            <li>
              <a href={`${root}/catalog/products/${p.id}/inventory`}>{tc.inventoryLink}</a>
            </li>
            {p.archived ? null : (
              <li>
                <a href={`${root}/widget?product=${p.id}#h-preview`}>{tc.previewLink}</a>
              </li>
            )}
          </ul>
        </div>
      ) : (
        <p class="hint">
          {tc.pricesHint} <a href={`${root}/prices`}>{tc.pricesLink}</a>
        </p>
      )}
      {s.failed ? (
        <div class="form-error" role="alert" id="form-error">
          <p>{s.failed.status === 409 ? `${tc.conflict} ${s.failed.message}` : t.fixErrors}</p>
          {s.failed.unplaced.length || Object.keys(s.failed.fields).length ? (
            <ul>
              {Object.entries(s.failed.fields).map(([key, message]) => (
                <li>
                  <a href={`#${fid(key)}`}>{fieldName(tc, key, t.lang)}</a>: {message}
                </li>
              ))}
              {s.failed.unplaced.map((m) => (
                <li>{m}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form class="editor" method="post" action={p ? `${root}/catalog/products/${p.id}` : `${root}/catalog/products`}>
        <Csrf c={c} />
        <input type="hidden" name="type" value={type} />
        {/* First in the form, so Enter in a field saves (a form's first submit button is its default, not "add a row"). */}
        <p class="actions">
          <button type="submit">{p ? tc.save : tc.create}</button>
        </p>
        <Group legend={tc.textsLegend} id="g-texts">
          <Field id={fid("title")} name="title" label={tc.titleLabel} value={val("title")} error={err("title")} required />
          <Field id={fid("backoffice_title")} name="backoffice_title" label={tc.staffTitle} value={val("backoffice_title")} error={err("backoffice_title")} hint={tc.staffTitleHint} />
          <Field id={fid("ref")} name="ref" label={tc.ref} value={val("ref")} error={err("ref")} hint={tc.refHint} autocomplete="off" />
          <TextArea name="description" label={tc.description} value={val("description")} error={err("description")} />
          <TextArea name="extended_description" label={tc.longDescription} value={val("extended_description")} error={err("extended_description")} rows={5} />
          <Field id={fid("image.small")} name="image.small" type="url" label={tc.imageSmall} value={val("image.small")} error={err("image.small")} />
          <Field id={fid("image.medium")} name="image.medium" type="url" label={tc.imageMedium} value={val("image.medium")} error={err("image.medium")} />
          <Field id={fid("image.large")} name="image.large" type="url" label={tc.imageLarge} value={val("image.large")} error={err("image.large")} />
        </Group>
        {d.languages.length ? (
          <Group legend={tc.translationsLegend} id="g-translations" hint={tc.translationsHint}>
            {d.languages.map((lang) => {
              const at = (f: string) => `translations.${lang}.${f}`;
              return (
                <Group legend={tc.translationOf(languageName(lang, t.lang))} id={fid(`translations.${lang}`)} error={err(`translations.${lang}`)} class="group nested">
                  <Field id={fid(at("title"))} name={at("title")} label={tc.titleLabel} value={val(at("title"))} error={err(at("title"))} />
                  <TextArea name={at("description")} label={tc.description} value={val(at("description"))} error={err(at("description"))} />
                  <TextArea name={at("extended_description")} label={tc.longDescription} value={val(at("extended_description"))} error={err(at("extended_description"))} rows={5} />
                </Group>
              );
            })}
          </Group>
        ) : null}
        <Group legend={tc.frontLegend} id="g-front" hint={tc.visibilityRule}>
          <Select id={fid("location_id")} name="location_id" label={tc.location} value={val("location_id")} options={choices(t, d.locations, val("location_id"))} error={err("location_id")} />
          <Select
            id={fid("backoffice_category_id")}
            name="backoffice_category_id"
            label={tc.staffCategory}
            value={val("backoffice_category_id")}
            options={choices(t, d.categories.filter((x) => x.kind === "backoffice"), val("backoffice_category_id"))}
            error={err("backoffice_category_id")}
          />
          <Select
            id={fid("frontoffice_category_id")}
            name="frontoffice_category_id"
            label={tc.frontCategory}
            value={val("frontoffice_category_id")}
            options={choices(t, d.categories.filter((x) => x.kind === "frontoffice"), val("frontoffice_category_id"))}
            error={err("frontoffice_category_id")}
          />
          <Check name="is_promoted" id={fid("is_promoted")} label={tc.promoted} checked={isOn(v, "is_promoted")} error={err("is_promoted")} />
        </Group>
        <Group legend={tc.durationLegend} id={fid("duration")} error={err("duration")}>
          <Select
            id={fid("duration.unit")}
            name="duration.unit"
            label={tc.unit}
            value={val("duration.unit") || "day"}
            error={err("duration.unit")}
            options={[
              ["day", tc.unitDay],
              ["hour", tc.unitHour],
            ]}
          />
          {num("duration.default", tc.lengthDefault, { required: true })}
          {num("duration.min", tc.minStay, { hint: tc.minStayHint })}
          {num("duration.max", tc.maxStay, { hint: tc.maxStayHint })}
          <Check name="duration.is_flexible" id={fid("duration.is_flexible")} label={tc.flexible} checked={isOn(v, "duration.is_flexible")} error={err("duration.is_flexible")} />
          <Field id={fid("duration.variants")} name="duration.variants" label={tc.variants} value={val("duration.variants")} error={err("duration.variants")} hint={tc.variantsHint} inputmode="numeric" />
          <Group legend={tc.checkinDays} id={fid("allowed_checkin_days")} error={err("allowed_checkin_days")} class="group nested days">
            {WEEKDAYS.map((day) => (
              <Check name="allowed_checkin_days" value={day} id={fid(`allowed_checkin_days-${day}`)} label={tc.weekdays[day]} checked={(v.allowed_checkin_days ?? []).includes(day)} />
            ))}
          </Group>
          {type === "accommodation" ? null : (
            <Field id={fid("default_start_time")} name="default_start_time" type="time" label={tc.startTime} value={val("default_start_time")} error={err("default_start_time")} hint={tc.startTimeHint} />
          )}
        </Group>
        <Group legend={tc.guestsLegend} id={fid("pax")} error={err("pax")}>
          {num("pax.min", tc.paxMin, { required: true })}
          {num("pax.max", tc.paxMax, { required: true })}
          {type === "accommodation" ? null : num("capacity", tc.capacity, { hint: tc.capacityHint })}
        </Group>
        {type === "accommodation" ? (
          <Group legend={tc.roomsLegend} id={fid("accommodation")} error={err("accommodation")} hint={tc.capacityRule}>
            <Select id={fid("accommodation_type_id")} name="accommodation_type_id" label={tc.accommodationType} value={val("accommodation_type_id")} options={choices(t, d.types, val("accommodation_type_id"))} error={err("accommodation_type_id")} />
            {num("accommodation.rooms", tc.rooms, { required: true })}
            {num("accommodation.beds_per_room", tc.bedsPerRoom, { required: true })}
            <Group legend={tc.soldAs} id={fid("accommodation.is_private")} error={err("accommodation.is_private")} class="group nested">
              <Check type="radio" name="accommodation.is_private" value="true" label={tc.private} checked={val("accommodation.is_private") !== "false"} />
              <Check type="radio" name="accommodation.is_private" value="false" label={tc.shared} checked={val("accommodation.is_private") === "false"} />
            </Group>
            <div class="field-with-hint">
              <Select
                id={fid("accommodation.gender")}
                name="accommodation.gender"
                label={tc.gender}
                value={val("accommodation.gender") || "mixed"}
                error={err("accommodation.gender")}
                options={(["mixed", "female", "male"] as const).map((g): [string, string] => [g, tc.genders[g]])}
              />
              <p class="hint">{tc.couplesHint}</p>
            </div>
            <Group legend={tc.srsLegend} id={fid("accommodation.srs")} error={err("accommodation.srs")} hint={tc.srsHint} class="group nested">
              <Field id={fid("accommodation.srs.charge")} name="accommodation.srs.charge" inputmode="decimal" label={tc.srsCharge(d.currency)} value={val("accommodation.srs.charge")} error={err("accommodation.srs.charge")} />
              <Select
                id={fid("accommodation.srs.fixed")}
                name="accommodation.srs.fixed"
                label={tc.srsFixed}
                value={val("accommodation.srs.fixed") || "bed"}
                error={err("accommodation.srs.fixed")}
                options={[
                  ["bed", tc.srsBed],
                  ["room", tc.srsRoom],
                ]}
              />
            </Group>
          </Group>
        ) : null}
        <Group legend={tc.paymentLegend} id={fid("payment_policy")} error={err("payment_policy")} hint={tc.paymentHint}>
          <Group legend={tc.depositLegend} id={fid("payment_policy.deposit")} error={err("payment_policy.deposit")} class="group nested">
            <Select
              id={fid("payment_policy.deposit.type")}
              name="payment_policy.deposit.type"
              label={tc.depositKind}
              value={val("payment_policy.deposit.type")}
              options={DEPOSIT_CHOICES.map((k): [string, string] => [k, tc.depositKinds[k || "business"]])}
            />
            <Field id={fid("payment_policy.deposit.value")} name="payment_policy.deposit.value" inputmode="decimal" label={tc.depositValue(d.currency)} value={val("payment_policy.deposit.value")} />
          </Group>
          {num("payment_policy.balance_due_days", tc.balanceDueDays, { hint: tc.balanceDueDaysHint })}
        </Group>
        {type === "package" ? (
          <Group legend={tc.packageLegend} id={fid("package")} error={err("package")}>
            <Group legend={tc.roomTypes} id={fid("package.accommodation_ids")} error={err("package.accommodation_ids")} hint={accommodations.length ? tc.roomTypesHint : tc.noRoomTypes} class="group nested">
              {accommodations.map((x) => (
                <Check
                  name="package.accommodation_ids"
                  value={String(x.id)}
                  id={fid(`package.accommodation_ids-${x.id}`)}
                  label={x.backoffice_title || x.title}
                  checked={(v["package.accommodation_ids"] ?? []).includes(String(x.id))}
                />
              ))}
            </Group>
            <h2 id="groups-heading" class="sub">{tc.groups}</h2>
            <p class="hint">{tc.groupsHint}</p>
            <FieldErrorLine id={fid("package.groups")} error={err("package.groups")} />
            <input type="hidden" name="package.groups.rows" value={String(groupRows)} />
            {Array.from({ length: groupRows }, (_, i) => {
              const row = `package.groups.${i}`;
              return (
                <Group legend={tc.groupRow(i + 1)} id={fid(row)} error={err(row)} class="group nested rowset">
                  <Field id={fid(`${row}.name`)} name={`${row}.name`} label={tc.groupName} value={val(`${row}.name`)} error={err(`${row}.name`)} />
                  <Check name={`${row}.is_configurable_dates`} id={fid(`${row}.is_configurable_dates`)} label={tc.guestPicksDays} checked={isOn(v, `${row}.is_configurable_dates`)} />
                  {val(`${row}.name`) ? <Check name={`${row}.remove`} id={fid(`${row}.remove`)} label={tc.remove} checked={isOn(v, `${row}.remove`)} /> : null}
                </Group>
              );
            })}
            <p>
              <button type="submit" class="secondary" name="_more" value="groups" formnovalidate>
                {tc.moreGroups}
              </button>
            </p>
            <h2 id="items-heading" class="sub">{tc.items}</h2>
            <p class="hint">{tc.itemsHint}</p>
            <FieldErrorLine id={fid("package.items")} error={err("package.items")} />
            <input type="hidden" name="package.items.rows" value={String(itemRows)} />
            {Array.from({ length: itemRows }, (_, i) => {
              const row = `package.items.${i}`;
              const chosen = val(`${row}.product_id`);
              const priced = pricing(t, byId.get(Number(chosen)), d.currency);
              return (
                <Group legend={tc.itemRow(i + 1)} id={fid(row)} error={err(row)} class="group nested rowset">
                  <input type="hidden" name={`${row}.id`} value={val(`${row}.id`)} />
                  <Select id={fid(`${row}.product_id`)} name={`${row}.product_id`} label={tc.product} value={chosen} options={itemChoices(chosen)} error={err(`${row}.product_id`)} />
                  <Select id={fid(`${row}.role`)} name={`${row}.role`} label={tc.role} value={val(`${row}.role`) || "option"} options={ITEM_ROLES.map((r): [string, string] => [r, tc.roles[r]])} error={err(`${row}.role`)} />
                  <Select
                    id={fid(`${row}.group`)}
                    name={`${row}.group`}
                    label={tc.group}
                    value={val(`${row}.group`)}
                    options={[["", tc.none], ...[...new Set([...groupNames, val(`${row}.group`)].filter(Boolean))].map((g): [string, string] => [g, g])]}
                    error={err(`${row}.group`)}
                  />
                  <Group legend={t.booking.qty} id={fid(`${row}.qty`)} error={err(`${row}.qty`)} class="group nested qty">
                    {num(`${row}.qty.min`, tc.qtyMin)}
                    {num(`${row}.qty.max`, tc.qtyMax)}
                    {num(`${row}.qty.default`, tc.qtyDefault)}
                  </Group>
                  <Check name={`${row}.is_configurable_dates`} id={fid(`${row}.is_configurable_dates`)} label={tc.guestPicksDays} checked={isOn(v, `${row}.is_configurable_dates`)} error={err(`${row}.is_configurable_dates`)} />
                  {chosen ? <Check name={`${row}.remove`} id={fid(`${row}.remove`)} label={tc.remove} checked={isOn(v, `${row}.remove`)} /> : null}
                  {priced ? <p class="hint">{priced}</p> : null}
                </Group>
              );
            })}
            <p>
              <button type="submit" class="secondary" name="_more" value="items" formnovalidate>
                {tc.moreItems}
              </button>
            </p>
          </Group>
        ) : null}
        <p>
          <button type="submit">{p ? tc.save : tc.create}</button>
        </p>
      </form>
      {p ? (
        <section aria-labelledby="archive-heading">
          <h2 id="archive-heading">{tc.archiveLegend}</h2>
          <form method="post" action={`${root}/catalog/products/${p.id}/${p.archived ? "restore" : "archive"}`}>
            <Csrf c={c} />
            <p class="hint">{p.archived ? tc.restoreHint : tc.archiveHint}</p>
            <button type="submit" class={p.archived ? "secondary" : "danger"}>
              {p.archived ? tc.restore : tc.archive}
            </button>
          </form>
        </section>
      ) : null}
    </Layout>,
    status,
  );
}

/** A list's own message (e.g. `package.items`: too many), where no row is named. */
const FieldErrorLine = ({ id, error }: { id: string; error?: string }) =>
  error ? (
    <p id={id} class="error">
      {error}
    </p>
  ) : null;

const typeOf = (value: string | undefined): string => {
  const parsed = ProductType.safeParse(value);
  if (!parsed.success) throw new ApiError(404, "not_found", "No such product type.");
  return parsed.data;
};

/** A posted form with "one more row" asked for: the same form again, with the row, nothing saved. */
function moreRows(v: Values): boolean {
  const list = one(v, "_more");
  if (list !== "items" && list !== "groups") return false;
  v[`package.${list}.rows`] = [String(rowsOf(v, list, 0) + 1)];
  return true;
}

/** Save a posted form: create or change through manage/, then see it (or the form again, with its errors). */
async function save(c: AdminContext, product: AdminProduct | undefined) {
  const v: Values = (await readForm(c)).all;
  const type = product?.type ?? typeOf(one(v, "type"));
  if (moreRows(v)) return renderEditor(c, { type, product, values: v, note: stringsOf(c).catalog.moreRows });
  const businessId = c.get("staff").business_id;
  const settings = await getSettings(c.env.DB, businessId);
  const languages = settings.languages.filter((l) => l !== settings.default_language);
  const sent = productBody(v, { type, creating: !product, translationLanguages: languages });
  let id: number;
  try {
    id = product
      ? (await updateProduct(c.env, staffActor(c), businessId, product.id, sent.body, c.get("now"))).id
      : (await createProduct(c.env, staffActor(c), businessId, sent.body as never, c.get("now"))).id;
  } catch (err) {
    const failed = failureOf(err, editorField(sent, editorKeys(type, languages, rowsOf(v, "items", 0), rowsOf(v, "groups", 0))), { join: true, lang: langOf(c) });
    if (!failed) throw err;
    // a 409 (capacity below what is used, a product in use) is the form's message alone
    const placed = failed.status === 422 ? { fields: failed.fields, unplaced: failed.unplaced } : { fields: {}, unplaced: [] };
    return renderEditor(c, { type, product, values: v, failed: { status: failed.status, message: failed.message, ...placed } }, failed.status);
  }
  return done(c, `${base(c)}/catalog/products/${id}`, product ? "saved" : "created");
}

async function productOf(c: AdminContext): Promise<AdminProduct> {
  return getProduct(c.env.DB, c.get("staff").business_id, idParam(c.req.param("id")));
}

/** GET /catalog/products/new?type=…: the editor of a new product. */
export const productNew = (c: AdminContext) => {
  const type = typeOf(c.req.query("type"));
  return renderEditor(c, { type, values: newProductValues(type) });
};

/** POST /catalog/products: create. */
export const productCreate = (c: AdminContext) => save(c, undefined);

/** GET /catalog/products/:id: the editor. */
export const productPage = async (c: AdminContext) => {
  const product = await productOf(c);
  return renderEditor(c, { type: product.type, product, values: productValues(product) });
};

/** POST /catalog/products/:id: save. */
export const productSave = async (c: AdminContext) => save(c, await productOf(c));

/** POST /catalog/products/:id/archive and /restore: a form of their own below the editor. */
export const productArchive = (action: "archive" | "restore") => async (c: AdminContext) => {
  const product = await productOf(c);
  const businessId = c.get("staff").business_id;
  try {
    await updateProduct(c.env, staffActor(c), businessId, product.id, { archived: action === "archive" }, c.get("now"));
  } catch (err) {
    const failed = failureOf(err, () => undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderEditor(c, { type: product.type, product, values: productValues(product), failed: { status: failed.status, message: failed.message, fields: {}, unplaced: failed.status === 422 ? failed.unplaced : [] } }, failed.status);
  }
  return done(c, `${base(c)}/catalog/products/${product.id}`, action === "archive" ? "archived" : "restored");
};
