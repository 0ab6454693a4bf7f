/** A booking's reference as people read it: its year and its number of that year, "2026-00042". */
export const referenceOf = (year: string, number: number) => `${year}-${String(number).padStart(5, "0")}`;
