import { describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey } from "./helpers";

// The widget sends its language as each guest's language_code; the cart it shows back must be
// in that language too, not in the business's default one.
describe("cart titles in the guest's language", () => {
  it("answers each guest's package and items in their language_code, falling back to the default", async () => {
    const key = await createKey("public");
    const stay = { id: 101, start_date: MAY_SAT, end_date: addDays(MAY_SAT, 7) };
    const add = await callJson("/api/pub/v2/bookings/add", {
      key,
      body: {
        currency: "EUR",
        guests: [
          { first_name: "Jonas", last_name: "Weber", gender: "m", birth_date: "1990-04-02", language_code: "de", package: { ...stay, accommodation_id: 201 } },
          { first_name: "Lucía", last_name: "Gómez", gender: "f", birth_date: "1992-07-12", language_code: "es", package: { ...stay, accommodation_id: 202 } },
          { first_name: "Sam", last_name: "Hill", gender: "m", birth_date: "1988-01-30", package: { ...stay, accommodation_id: 201 } },
        ],
      },
    });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    const check = (guests: any[]) => {
      const [de, es, en] = guests;
      expect(de.package.title).toBe("Surf- & Yoga-Woche");
      expect(de.items.map((i: any) => i.title)).toContain("Ozean-Schlafsaal (Männer)");
      expect(es.items.map((i: any) => i.title)).toContain("Dormitorio Atardecer (mujeres)");
      expect(en.package.title).toBe("Surf & Yoga Week");
      expect(en.items.map((i: any) => i.title)).not.toContain("Ozean-Schlafsaal (Männer)");
    };
    check(add.body.guests);
    const view = await callJson(`/api/pub/v2/carts/${add.body.cart_id}`, { key });
    expect(view.status).toBe(200);
    check(view.body.guests);
  });
});
