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

/** The colour properties (the palette a scheme sets). */
export type ThemeColour = { [K in ThemeProperty]: (typeof THEME_PROPERTIES)[K] extends "color" ? K : never }[ThemeProperty];

/**
 * The widget's own palettes, written once: the light scheme, and the dark one it shows under
 * `prefers-color-scheme: dark` or `theme="dark"`. The widget's stylesheet builds its defaults
 * from them (widget/src/booking-widget.styles.ts); a business's saved theme and the host page's
 * `--bw-*` rules win over them. The back office can show them as its placeholders.
 */
export const WIDGET_PALETTES: Record<"light" | "dark", Record<ThemeColour, string>> = {
  light: {
    "--bw-accent": "#0a5d7a",
    "--bw-accent-text": "#ffffff",
    "--bw-bg": "#ffffff",
    "--bw-surface": "#f3f6f8",
    "--bw-text": "#17232b",
    "--bw-muted": "#4f5e68",
    "--bw-border": "#b9c6ce",
    "--bw-danger": "#a8201a",
    "--bw-success": "#1d6b3a",
    "--bw-focus": "#c2410c",
  },
  dark: {
    "--bw-accent": "#6cc4e4",
    "--bw-accent-text": "#06212c",
    "--bw-bg": "#121a1f",
    "--bw-surface": "#1c272e",
    "--bw-text": "#e8eef2",
    "--bw-muted": "#a9b8c2",
    "--bw-border": "#3b4a54",
    "--bw-danger": "#ff9c94",
    "--bw-success": "#8fd8a8",
    "--bw-focus": "#fdba74",
  },
};
export const THEME_NAMES = Object.keys(THEME_PROPERTIES) as ThemeProperty[];
export type WidgetTheme = Partial<Record<ThemeProperty, string>>;

const NUM = "\\d{1,4}(?:\\.\\d{1,4})?";
const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FUNC = /* @__PURE__ */ new RegExp(`^(?:rgb|rgba|hsl|hsla)\\(\\s*${NUM}(?:deg|%)?(?:\\s*[,\\s]\\s*${NUM}%?){2}(?:\\s*[,/]\\s*${NUM}%?)?\\s*\\)$`);
const LENGTH = /* @__PURE__ */ new RegExp(`^(?:0|${NUM}(?:px|em|rem|%|ch|vw|vh))$`);
const FAMILY = `(?:"[A-Za-z0-9 -]{1,60}"|'[A-Za-z0-9 -]{1,60}'|[A-Za-z][A-Za-z0-9 -]{0,59})`;
const FONT = /* @__PURE__ */ new RegExp(`^${FAMILY}(?:\\s*,\\s*${FAMILY}){0,9}$`);

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
