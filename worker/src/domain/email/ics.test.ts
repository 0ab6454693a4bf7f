import { describe, expect, it } from "vitest";
import { calendarFile } from "./ics";

const octets = (s: string) => new TextEncoder().encode(s).length;
const base = { bookingId: "b-1", domain: "camp.example", location: null, events: [{ key: "stay-1", title: "Surf week", start: "2026-12-05", end: "2026-12-12" }], now: new Date("2026-11-27T10:00:00Z") };

describe("the calendar file's content lines (RFC 5545 3.1)", () => {
  it("folds a long line of many-byte characters at 75 octets, never inside a character, and unfolds to what was written", () => {
    // Two-, three- and four-byte characters, so that a fold point falls inside a sequence somewhere.
    const description = `Séjour à Ericeira — café ☕ incluído, 🌊 ondas de 2 m, ${"ç€😀".repeat(12)} fim`;
    const ics = calendarFile({ ...base, description });
    const lines = ics.split("\r\n");
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain(`DESCRIPTION:${description.replace(/,/g, "\\,")}\r\n`);
    // It was folded: more physical lines than the content lines written.
    expect(lines.filter((l) => l.startsWith(" ")).length).toBeGreaterThan(1);
  });

  it("leaves a short line as it is", () => {
    const ics = calendarFile({ ...base, description: "Surf camp · REF-2026-7" });
    expect(ics).toContain("\r\nDESCRIPTION:Surf camp · REF-2026-7\r\n");
    expect(ics.split("\r\n").every((l) => !l.startsWith(" "))).toBe(true);
  });
});
