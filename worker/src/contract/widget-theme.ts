/**
 * The widget's theme as a business saves it (settings `widget_theme`): values for the widget's
 * `--bw-*` custom properties, each checked strictly against the syntax of its kind: a colour
 * (`#rgb`, `#rrggbb`, with alpha, or `rgb()`/`hsl()` of numbers), a length, or a list of font
 * family names. Nothing else passes: no `;`, `}`, `{`, `\`, `url(`, comment or unbalanced quote,
 * so a saved value can never close the rule the widget writes it into (no CSS injection).
 *
 * The widget applies a saved theme from its bootstrap answer (widget/src/booking-widget.component.ts
 * `themeCss`: colours on its light scheme, sizes and font on both, under the host page's own CSS).
 */

export type ThemeKind = "color" | "length" | "font";

/** The properties a business may set, in the order the back office shows them. */
export const THEME_PROPERTIES = {
  "--bw-accent": "color",
  "--bw-accent-text": "color",
  "--bw-bg": "color",
  "--bw-surface": "color",
  "--bw-text": "color",
  "--bw-muted": "color",
  "--bw-border": "color",
  "--bw-danger": "color",
  "--bw-success": "color",
  "--bw-focus": "color",
  "--bw-radius": "length",
  "--bw-font": "font",
  "--bw-font-size": "length",
  "--bw-min-height": "length",
  "--bw-max-width": "length",
} as const satisfies Record<string, ThemeKind>;

export type ThemeProperty = keyof typeof THEME_PROPERTIES;
export const THEME_NAMES = Object.keys(THEME_PROPERTIES) as ThemeProperty[];
export type WidgetTheme = Partial<Record<ThemeProperty, string>>;

const NUM = "\\d{1,4}(?:\\.\\d{1,4})?";
const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FUNC = new RegExp(`^(?:rgb|rgba|hsl|hsla)\\(\\s*${NUM}(?:deg|%)?(?:\\s*[,\\s]\\s*${NUM}%?){2}(?:\\s*[,/]\\s*${NUM}%?)?\\s*\\)$`);
const LENGTH = new RegExp(`^(?:0|${NUM}(?:px|em|rem|%|ch|vw|vh))$`);
const FAMILY = `(?:"[A-Za-z0-9 -]{1,60}"|'[A-Za-z0-9 -]{1,60}'|[A-Za-z][A-Za-z0-9 -]{0,59})`;
const FONT = new RegExp(`^${FAMILY}(?:\\s*,\\s*${FAMILY}){0,9}$`);

/** The patterns of each kind, for the back office's live preview to check as the service does. */
export const THEME_PATTERNS: Record<ThemeKind, RegExp[]> = { color: [HEX, FUNC], length: [LENGTH], font: [FONT] };

export const isThemeProperty = (name: string): name is ThemeProperty => Object.hasOwn(THEME_PROPERTIES, name);

/** Why `value` is not a valid value of `name`, or null when it is. */
export function themeValueProblem(name: ThemeProperty, value: string): string | null {
  if (value.length > 200) return "must be at most 200 characters";
  const kind: ThemeKind = THEME_PROPERTIES[name];
  if (kind === "color") return HEX.test(value) || FUNC.test(value) ? null : "must be a colour: #rrggbb, #rgb, rgb(…) or hsl(…)";
  if (kind === "length") return LENGTH.test(value) ? null : "must be a length: a number with px, em, rem, %, ch, vw or vh (or 0)";
  return FONT.test(value.trim()) ? null : 'must be font family names separated by commas (letters, digits, spaces, hyphens; quoted as "Name" where needed)';
}
