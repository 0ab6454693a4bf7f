/**
 * `{name}` placeholders filled with their values; an unknown one stays as written, so a missing
 * value shows instead of vanishing. One function for every table of texts: the widget's
 * (widget/src/strings) and the e-mails' (domain/email/strings.ts). It lives in contract/ because
 * that is the one room both the widget and the worker import from, and it imports nothing.
 */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (key in values ? String(values[key]) : m));
}
