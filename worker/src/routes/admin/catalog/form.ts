/**
 * The product editor's form, as data: a product (or a new one's defaults) as the flat fields of
 * the HTML form, the posted fields as the private API's ProductCreate / ProductPatch body, and a
 * 422's error paths (`package.items.1.qty`) placed at the input that shows them.
 *
 * The form's field names are the API's paths (`duration.default`, `package.items.0.product_id`),
 * so an error's path names its input. Nothing here is checked: manage/ checks the body as it
 * checks the API's, and a value the form cannot read as a number goes to it as typed, so its 422
 * names the field.
 */
import type { AdminProduct } from "../../../contract/catalog-write";

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const TEXT_FIELDS = ["title", "description", "extended_description"] as const;
export const ITEM_ROLES = ["default", "option", "alternative", "upgrade"] as const;

/** A form's fields: every value of each name (checkboxes repeat a name). */
export type Values = Record<string, string[]>;

/** A field's value; the last one when a name is repeated (as kit/form.ts Form.get reads it). */
export const one = (v: Values, name: string) => v[name]?.at(-1) ?? "";
export const isOn = (v: Values, name: string) => (v[name] ?? []).length > 0;

/** Blank rows shown below a package's items and groups, for adding without script. */
export const BLANK_ITEMS = 2;
export const BLANK_GROUPS = 1;
/** At most this many rows are rendered (the API's own limits are 200 items and 50 groups). */
const MAX_ROWS = { items: 200, groups: 50 };

/** How many rows of a list the form has (its hidden `rows` field, kept in bounds). */
export function rowsOf(v: Values, list: "items" | "groups", fallback: number): number {
  const n = Number(one(v, `package.${list}.rows`));
  return Number.isInteger(n) && n >= 0 ? Math.min(n, MAX_ROWS[list]) : fallback;
}

/** A new product's form: productDefaults (domain/catalog-write.ts) as the form shows them. */
export function newProductValues(type: string): Values {
  return {
    type: [type],
    "duration.unit": ["day"],
    "duration.default": ["1"],
    "pax.min": ["1"],
    "pax.max": ["1"],
    allowed_checkin_days: [...WEEKDAYS],
    "accommodation.rooms": ["1"],
    "accommodation.beds_per_room": ["1"],
    "accommodation.is_private": ["true"],
    "accommodation.gender": ["mixed"],
    "accommodation.srs.fixed": ["bed"],
    "package.items.rows": [String(BLANK_ITEMS + 1)],
    "package.groups.rows": [String(BLANK_GROUPS)],
  };
}

/** A product as its form's fields. */
export function productValues(p: AdminProduct): Values {
  const v: Values = {};
  const set = (name: string, value: string | number | null | undefined) => {
    v[name] = [value === null || value === undefined ? "" : String(value)];
  };
  const flag = (name: string, on: boolean) => {
    v[name] = on ? ["on"] : [];
  };
  set("type", p.type);
  for (const f of ["title", "ref", "description", "extended_description"] as const) set(f, p[f]);
  // The staff title shown blank while it is the title, so that renaming the product renames it too.
  set("backoffice_title", p.backoffice_title === p.title ? "" : p.backoffice_title);
  for (const [lang, texts] of Object.entries(p.translations)) for (const f of TEXT_FIELDS) set(`translations.${lang}.${f}`, texts[f]);
  for (const f of ["small", "medium", "large"] as const) set(`image.${f}`, p.image[f]);
  for (const f of ["location_id", "backoffice_category_id", "frontoffice_category_id", "accommodation_type_id", "default_start_time", "capacity"] as const) set(f, p[f]);
  flag("is_promoted", p.is_promoted);
  set("duration.unit", p.duration.unit);
  set("duration.default", p.duration.default);
  set("duration.min", p.duration.min);
  set("duration.max", p.duration.max);
  flag("duration.is_flexible", p.duration.is_flexible);
  set("duration.variants", p.duration.variants.join(", "));
  set("pax.min", p.pax.min);
  set("pax.max", p.pax.max);
  v.allowed_checkin_days = WEEKDAYS.filter((d) => p.allowed_checkin_days[d]);
  const a = p.accommodation;
  set("accommodation.rooms", a?.rooms ?? 1);
  set("accommodation.beds_per_room", a?.beds_per_room ?? 1);
  set("accommodation.is_private", String(a?.is_private ?? true));
  set("accommodation.gender", a?.gender ?? "mixed");
  set("accommodation.srs.charge", a?.srs?.charge);
  set("accommodation.srs.fixed", a?.srs?.fixed ? "room" : "bed");
  const pkg = p.package;
  v["package.accommodation_ids"] = (pkg?.accommodation_ids ?? []).map(String);
  (pkg?.groups ?? []).forEach((g, i) => {
    set(`package.groups.${i}.name`, g.name);
    flag(`package.groups.${i}.is_configurable_dates`, g.is_configurable_dates);
  });
  set("package.groups.rows", (pkg?.groups.length ?? 0) + BLANK_GROUPS);
  (pkg?.items ?? []).forEach((it, i) => {
    const row = `package.items.${i}`;
    set(`${row}.id`, it.id);
    set(`${row}.product_id`, it.product_id);
    set(`${row}.role`, it.role);
    set(`${row}.group`, it.group);
    set(`${row}.qty.min`, it.qty.min);
    set(`${row}.qty.max`, it.qty.max);
    set(`${row}.qty.default`, it.qty.default);
    flag(`${row}.is_configurable_dates`, it.is_configurable_dates);
  });
  set("package.items.rows", (pkg?.items.length ?? 0) + BLANK_ITEMS);
  const deposit = p.payment_policy?.deposit;
  set("payment_policy.deposit.type", deposit?.type ?? "");
  set("payment_policy.deposit.value", deposit?.type === "percent" ? deposit.percent : deposit?.type === "per_person" ? deposit.amount : "");
  set("payment_policy.balance_due_days", p.payment_policy?.balance_due_days);
  return v;
}

/** The deposit choices of a product's own payment policy: "" is "as the business". */
export const DEPOSIT_CHOICES = ["", "none", "percent", "per_person"] as const;

/**
 * A product's own payment policy as posted: the deposit (kind and value) and the balance due days,
 * each blank where the product follows the business; null when both are. A value the form cannot
 * read goes as typed, so the 422 names it (`payment_policy.deposit.percent`).
 */
function paymentPolicyBody(v: Values): Record<string, unknown> | null {
  const kind = one(v, "payment_policy.deposit.type");
  const value = num(one(v, "payment_policy.deposit.value").replace(",", "."), "");
  const days = num(one(v, "payment_policy.balance_due_days"), undefined);
  const out: Record<string, unknown> = {};
  if (kind === "none") out.deposit = { type: "none" };
  else if (kind === "percent") out.deposit = { type: "percent", percent: value };
  else if (kind === "per_person") out.deposit = { type: "per_person", amount: value };
  if (days !== undefined) out.balance_due_days = days;
  return Object.keys(out).length ? out : null;
}

/** A number as typed; blank is `blank`; anything else goes as typed (manage/ names the field). */
function num(text: string, blank: number | null | undefined | ""): number | string | null | undefined {
  const s = text.trim();
  if (s === "") return blank;
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
}

export interface FormContext {
  type: string;
  creating: boolean;
  /** The business's languages other than its default: the translations the form has. */
  translationLanguages: string[];
}

export interface ProductBody {
  body: Record<string, unknown>;
  /** The form row of each package item sent (items of blank or removed rows are not sent). */
  itemRows: number[];
  groupRows: number[];
}

/**
 * The posted form as the API's body. Every field the form shows is sent (a PATCH replaces each
 * whole); what the form does not show is left out, so it stays: rates (the Prices screen),
 * timeslots and inventory (the product's inventory screen), the type. Translations are sent for
 * the business's languages only: one in a language the business no longer has is dropped (the
 * rules refuse it, so the product could not be saved with it).
 */
export function productBody(v: Values, ctx: FormContext): ProductBody {
  const body: Record<string, unknown> = {};
  const text = (name: string) => one(v, name);
  if (ctx.creating) body.type = ctx.type;
  body.title = text("title");
  // A blank ref: made from the title (new) or kept (a change).
  if (text("ref").trim() !== "") body.ref = text("ref").trim();
  body.backoffice_title = text("backoffice_title");
  body.description = text("description");
  body.extended_description = text("extended_description");
  const translations: Record<string, Record<string, string>> = {};
  for (const lang of ctx.translationLanguages) {
    const texts: Record<string, string> = {};
    for (const f of TEXT_FIELDS) if (text(`translations.${lang}.${f}`).trim() !== "") texts[f] = text(`translations.${lang}.${f}`);
    if (Object.keys(texts).length) translations[lang] = texts;
  }
  body.translations = translations;
  body.image = { small: text("image.small").trim(), medium: text("image.medium").trim(), large: text("image.large").trim() };
  for (const f of ["location_id", "backoffice_category_id", "frontoffice_category_id"] as const) body[f] = num(text(f), null);
  body.is_promoted = isOn(v, "is_promoted");
  body.duration = {
    unit: text("duration.unit") || "day",
    default: num(text("duration.default"), ""),
    ...(text("duration.min").trim() !== "" ? { min: num(text("duration.min"), undefined) } : {}),
    max: num(text("duration.max"), null),
    is_flexible: isOn(v, "duration.is_flexible"),
    variants: text("duration.variants")
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((x) => num(x, undefined)),
  };
  body.pax = { min: num(text("pax.min"), ""), max: num(text("pax.max"), "") };
  const days = new Set(v.allowed_checkin_days ?? []);
  body.allowed_checkin_days = Object.fromEntries(WEEKDAYS.map((d) => [d, days.has(d)]));
  if (ctx.type === "accommodation") {
    body.accommodation_type_id = num(text("accommodation_type_id"), null);
    const isPrivate = text("accommodation.is_private") !== "false";
    const charge = text("accommodation.srs.charge");
    body.accommodation = {
      rooms: num(text("accommodation.rooms"), ""),
      beds_per_room: num(text("accommodation.beds_per_room"), ""),
      is_private: isPrivate,
      gender: isPrivate ? null : text("accommodation.gender") || "mixed",
      // A charge on a private type goes as typed: the rules say why it has none.
      srs: charge.trim() === "" ? null : { charge: num(charge.replace(",", "."), ""), fixed: text("accommodation.srs.fixed") === "room" },
    };
  } else {
    body.default_start_time = text("default_start_time").trim() || null;
    body.capacity = num(text("capacity"), null);
  }
  const itemRows: number[] = [];
  const groupRows: number[] = [];
  if (ctx.type === "package") {
    const groups: Record<string, unknown>[] = [];
    for (let i = 0; i < rowsOf(v, "groups", 0); i++) {
      const name = text(`package.groups.${i}.name`).trim();
      if (name === "" || isOn(v, `package.groups.${i}.remove`)) continue;
      groups.push({ name, is_configurable_dates: isOn(v, `package.groups.${i}.is_configurable_dates`) });
      groupRows.push(i);
    }
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < rowsOf(v, "items", 0); i++) {
      const row = `package.items.${i}`;
      if (text(`${row}.product_id`) === "" || isOn(v, `${row}.remove`)) continue;
      const id = num(text(`${row}.id`), undefined);
      items.push({
        ...(id !== undefined ? { id } : {}),
        product_id: num(text(`${row}.product_id`), ""),
        role: text(`${row}.role`) || "option",
        group: text(`${row}.group`) || null,
        qty: { min: num(text(`${row}.qty.min`), 0), max: num(text(`${row}.qty.max`), 1), default: num(text(`${row}.qty.default`), 1) },
        is_configurable_dates: isOn(v, `${row}.is_configurable_dates`),
      });
      itemRows.push(i);
    }
    body.package = { accommodation_ids: (v["package.accommodation_ids"] ?? []).map((x) => num(x, "")), groups, items };
  }
  body.payment_policy = paymentPolicyBody(v);
  return { body, itemRows, groupRows };
}

/**
 * The fields (and groups of fields) the editor shows an error at, for a product type and its
 * rows. An error is placed at the longest of these its path starts with.
 */
export function editorKeys(type: string, languages: string[], itemRows: number, groupRows: number): Set<string> {
  const keys = ["ref", "title", "backoffice_title", "description", "extended_description", "image.small", "image.medium", "image.large", "location_id", "backoffice_category_id", "frontoffice_category_id", "is_promoted"];
  keys.push("duration", "duration.unit", "duration.default", "duration.min", "duration.max", "duration.is_flexible", "duration.variants", "pax", "pax.min", "pax.max", "allowed_checkin_days");
  keys.push("payment_policy", "payment_policy.deposit", "payment_policy.balance_due_days");
  for (const lang of languages) keys.push(`translations.${lang}`, ...TEXT_FIELDS.map((f) => `translations.${lang}.${f}`));
  if (type === "accommodation") {
    keys.push("accommodation_type_id", "accommodation", "accommodation.rooms", "accommodation.beds_per_room", "accommodation.is_private", "accommodation.gender", "accommodation.srs", "accommodation.srs.charge", "accommodation.srs.fixed");
  } else keys.push("capacity", "default_start_time");
  if (type === "package") {
    keys.push("package", "package.accommodation_ids", "package.groups", "package.items");
    for (let i = 0; i < groupRows; i++) keys.push(`package.groups.${i}`, `package.groups.${i}.name`);
    for (let i = 0; i < itemRows; i++) keys.push(`package.items.${i}`, `package.items.${i}.product_id`, `package.items.${i}.role`, `package.items.${i}.group`, `package.items.${i}.qty`, `package.items.${i}.is_configurable_dates`);
  }
  return new Set(keys);
}

/**
 * The editor's field of an error's path (kit/form.ts failureOf places the errors with it): the
 * item and group indexes of the body sent are turned back into the form's rows (`sent`), and a
 * path is held by its longest leading part that is a field or group of the editor (`known`);
 * undefined when none is.
 */
export function editorField(sent: Pick<ProductBody, "itemRows" | "groupRows">, known: Set<string>): (path: string) => string | undefined {
  return (path) => {
    const parts = path.split(".");
    if (parts[0] === "package" && (parts[1] === "items" || parts[1] === "groups") && /^\d+$/.test(parts[2] ?? "")) {
      const rows = parts[1] === "items" ? sent.itemRows : sent.groupRows;
      parts[2] = String(rows[Number(parts[2])] ?? parts[2]);
    }
    // A quantity's own fields share one message (the rule speaks of min, max and default together).
    if (parts[0] === "package" && parts[1] === "items" && parts[3] === "qty") parts.length = 4;
    let key = parts.join(".");
    while (key && !known.has(key)) key = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : "";
    return key || undefined;
  };
}
