/**
 * One CSV field, safe to open in a spreadsheet in any locale. The file is comma-separated, but
 * Excel set to a `;` list separator (German, Spanish: the back office's own languages) splits an
 * unquoted `Max;=1+1;x` into three cells, the middle one a formula. So:
 * - a field holding either separator, a quote or a line break is quoted (a quoted field is never
 *   split, whichever separator the reader uses);
 * - the field, and each part of it after a separator, that begins with = + - @ (or a tab or a
 *   carriage return, which some readers skip) gets a leading `'`, so no part ever runs as a formula.
 */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const defused = text.replace(/(^|[;,])([=+\-@\t\r])/g, "$1'$2");
  return /[",;\r\n]/.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}
