/**
 * The languages the booking widget has texts in (widget/src/strings/index.ts keys its texts by
 * this list, so the two cannot drift apart: a language missing from either fails the typecheck).
 * The back office's Settings warns an owner who enables a language outside it.
 */
export const WIDGET_LANGUAGES = ["en", "de", "es", "pt", "fr", "it", "nl"] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];
