/**
 * The business's settings: its row (title, company, front-office domain), its currencies with
 * their exchange rates, and every field of its configuration (contract/config.ts). A change is
 * validated whole: every bad field is named (stored ones included) and nothing is written.
 */
import { configFields, readConfig } from "../contract/config";
import { SettingsPatch } from "../contract/settings";
import type { CurrencyEntity, SettingsEntity } from "../domain/catalog-write";
import { IdAllocator } from "../domain/catalog-write";
import { emptyPlan, planEntity, settingsView } from "../domain/catalog-plan";
import { settingsProblems } from "../domain/catalog-rules";
import type { FieldError } from "../lib/errors";
import { senderSettingProblem, sendingDomains } from "../domain/email/sender";
import { commit, failIfInvalid, parseInput, readState, type Actor, type Store } from "./core";
import type { D1 } from "../db/d1";

export type SettingsView = ReturnType<typeof settingsView> & { id: number; slug: string; problems: { field: string; message: string; stored: unknown }[] };

function view(businessId: number, slug: string, s: SettingsEntity): SettingsView {
  return { id: businessId, slug, ...settingsView(s), problems: storedProblems(s) };
}

/** Stored configuration fields that do not parse (each works with its default until it is set). */
function storedProblems(s: SettingsEntity) {
  if ("__stored" in s.config) return [{ field: "*", message: "the stored configuration is not a JSON object", stored: s.config.__stored }];
  return readConfig(JSON.stringify(s.config)).problems;
}

/** "https://SurfCamp.example/" as the origin it names ("https://surfcamp.example"); anything with a path stays as sent, for the rules to refuse. */
export function asOrigin(sent: string): string {
  const text = sent.trim();
  try {
    const url = new URL(text);
    if ((url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i.test(text)) return url.origin;
  } catch {
    /* not a URL: the rules say so */
  }
  return text;
}

export async function getSettings(db: D1, businessId: number): Promise<SettingsView> {
  const state = await readState(db, businessId);
  return view(state.businessId, state.slug, state.settings);
}

/** English name and symbol of a currency code (Intl), the code itself where unknown. */
function currencyNames(code: string): { title: string; symbol: string } {
  let title = code;
  let symbol = code;
  try {
    title = new Intl.DisplayNames(["en"], { type: "currency" }).of(code) ?? code;
    symbol = new Intl.NumberFormat("en", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" }).formatToParts(0).find((p) => p.type === "currency")?.value ?? code;
  } catch {
    /* an unknown code: its code */
  }
  return { title, symbol };
}

export async function updateSettings(store: Store, actor: Actor, businessId: number, body: SettingsPatch, now: Date): Promise<SettingsView> {
  const db = store.DB;
  const patch = parseInput(SettingsPatch, body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const before = state.settings;
    const errors: FieldError[] = [];
    const broken = "__stored" in before.config;
    const sent = configFields().filter((f) => (patch as Record<string, unknown>)[f] !== undefined);
    if (broken && sent.length < configFields().length) {
      errors.push({ path: "*", message: `the stored configuration is not a JSON object; send every configuration field (${configFields().join(", ")}) to replace it` });
    }
    const config: Record<string, unknown> = broken ? {} : { ...before.config };
    for (const f of sent) config[f] = (patch as Record<string, unknown>)[f];
    // An origin as an owner copies it from the address bar ("https://surfcamp.example/") is that origin.
    if (Array.isArray(config.widget_origins)) config.widget_origins = (config.widget_origins as string[]).map(asOrigin);
    const after: SettingsEntity = {
      title: patch.title ?? before.title,
      company_name: patch.company_name ?? before.company_name,
      frontoffice_domain: patch.frontoffice_domain ?? before.frontoffice_domain,
      config,
      currencies: patch.currencies ? settingsCurrencies(before.currencies, patch.currencies, new IdAllocator(state.maxIds), errors) : before.currencies,
    };
    errors.push(...settingsProblems(after, state.products.some((p) => p.rates.length > 0), before));
    // The business's own sender only on a domain the operator onboarded (EMAIL_SENDING_DOMAINS).
    const sender = senderSettingProblem(after.config, broken ? null : before.config, sendingDomains(store.EMAIL_SENDING_DOMAINS));
    if (sender) errors.push({ path: "email_from", message: sender });
    failIfInvalid(errors);
    const plan = emptyPlan();
    planEntity(plan, state, "settings", before, after);
    return { plan, result: view(state.businessId, state.slug, after) };
  });
  return result;
}

/** The currencies as sent: one of a stored code keeps its id (and title and symbol unless sent). */
export function settingsCurrencies(before: CurrencyEntity[], sent: NonNullable<SettingsPatch["currencies"]>, ids: IdAllocator, errors: FieldError[], prefix = ""): CurrencyEntity[] {
  const defaults = sent.filter((c) => c.default);
  if (defaults.length > 1) errors.push({ path: `${prefix}currencies`, message: "only one currency is the default" });
  const defaultIndex = Math.max(0, sent.findIndex((c) => c.default));
  return sent.map((c, i) => {
    const old = before.find((x) => x.iso_code === c.iso_code);
    const names = currencyNames(c.iso_code);
    return {
      id: old?.id ?? ids.take("currencies"),
      iso_code: c.iso_code,
      title: c.title ?? old?.title ?? names.title,
      symbol: c.symbol ?? old?.symbol ?? names.symbol,
      exchange_rate: c.exchange_rate ?? 1,
      is_default: i === defaultIndex,
    };
  });
}

