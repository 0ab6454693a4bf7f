/**
 * The frame every e-mail shares: the business's name on a band of its brand colour, the content,
 * and its contact at the foot. Tables and inline styles (what mail clients render), one column at
 * most 600 px wide so that it reads on a phone, and nothing remote: no images, fonts or trackers.
 * Pure; every value that came from a person is escaped here or by the caller with esc().
 */

export interface MailBrand {
  /** The business's name as guests know it (its title). */
  name: string;
  /** #RRGGBB */
  color: string;
  contactEmail: string | null;
  contactPhone: string | null;
}

export const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Black or white text, whichever reads better on `hex` (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Contrast with white (1.05 / (l + 0.05)) against contrast with black ((l + 0.05) / 0.05).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? "#ffffff" : "#111111";
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export const html = {
  h1: (text: string) => `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1f2933">${esc(text)}</h1>`,
  h2: (text: string) => `<h2 style="margin:24px 0 8px;font-size:17px;line-height:1.3;color:#1f2933">${esc(text)}</h2>`,
  p: (text: string) => `<p style="margin:0 0 12px">${esc(text)}</p>`,
  small: (text: string) => `<p style="margin:0 0 12px;font-size:13px;color:#52606d;white-space:pre-line">${esc(text)}</p>`,
  /**
   * Rows of label and value, the value right-aligned. A short value (an amount, a reference) stays
   * on one line; a longer one (a date range) may wrap, so that nothing is wider than a phone.
   */
  rows: (rows: [string, string, boolean?][]) =>
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">${rows
      .map(
        ([label, value, strong]) =>
          `<tr><td style="padding:4px 8px 4px 0;vertical-align:top${strong ? ";font-weight:700" : ""}">${esc(label)}</td>` +
          `<td align="right" style="padding:4px 0;vertical-align:top${value.length <= 16 ? ";white-space:nowrap" : ""}${strong ? ";font-weight:700" : ""}">${esc(value)}</td></tr>`,
      )
      .join("")}</table>`,
  /** A bordered card (one guest). */
  card: (inner: string) => `<div style="border:1px solid #e4e7eb;border-radius:6px;padding:12px 14px;margin:0 0 12px">${inner}</div>`,
};

/** The whole HTML document. */
export function frame(brand: MailBrand, language: string, title: string, preheader: string, content: string, footer: string): string {
  const band = brand.color;
  return `<!doctype html>
<html lang="${esc(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light only"><title>${esc(title)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div style="display:none;max-height:0;overflow:hidden">${esc(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;font-family:${FONT};font-size:16px;line-height:1.5;color:#1f2933">
<tr><td style="background:${band};color:${textOn(band)};padding:18px 24px;border-radius:8px 8px 0 0;font-size:20px;font-weight:700">${esc(brand.name)}</td></tr>
<tr><td style="padding:24px">${content}</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e4e7eb;font-size:13px;color:#52606d">${footer}</td></tr>
</table></td></tr></table>
</body></html>
`;
}
