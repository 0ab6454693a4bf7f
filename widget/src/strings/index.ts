import { de } from "./de";
import { en, type Strings } from "./en";
import { es } from "./es";

export type { Strings };
const tables: Record<string, Strings> = { en, de, es };

/** The table for a language; English for one the widget has no table for. */
export function stringsFor(language: string): Strings {
  return tables[language] ?? en;
}

/** Fill `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => (k in values ? String(values[k]) : `{${k}}`));
}
