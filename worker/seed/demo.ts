/**
 * The demo business (slug `demo`): a surf and yoga camp with a weekly package, dorms by gender,
 * private rooms, srs, included surf lessons, yoga on timeslots, board rental, airport transfer,
 * stand-alone activities and rentals, seasons, two currencies and three languages.
 *
 * Every statement is an INSERT OR IGNORE with fixed ids, so seeding is idempotent and never
 * touches what guests and integrators created. Seasons are laid out around `today`'s year.
 * The same statements run in tests (D1 batch) and from `npm start` (rendered to SQL).
 */
export interface SeedStatement {
  sql: string;
  params: (string | number | null)[];
}

export const DEMO_BUSINESS_ID = 1;
const B = DEMO_BUSINESS_ID;

const allDays = { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true };
const saturdays = { mon: false, tue: false, wed: false, thu: false, fri: false, sat: true, sun: false };

const img = (name: string) => ({
  small: `https://images.booking-platform.dev/demo/${name}-small.jpg`,
  medium: `https://images.booking-platform.dev/demo/${name}-medium.jpg`,
  large: `https://images.booking-platform.dev/demo/${name}-large.jpg`,
});

interface ProductSeed {
  id: number;
  type: string;
  title: string;
  backoffice_title: string;
  description: string;
  extended_description?: string;
  image: string;
  gender?: string | null;
  backoffice_category_id: number;
  frontoffice_category_id?: number | null;
  location_id: number;
  accommodation_type_id?: number | null;
  duration: { is_flexible: boolean; min: number; default: number; unit: "day" | "hour"; variants: number[] };
  pax: [number, number];
  default_start_time?: string | null;
  is_private?: boolean;
  checkin?: Record<string, boolean>;
  timeslots?: string[];
  promoted?: boolean;
  rooms?: number;
  beds_per_room?: number;
  srs?: { charge_minor: number; fixed: boolean };
  capacity: number | null;
  translations: Record<string, Record<string, string>>;
}

export const demoProducts: ProductSeed[] = [
  {
    id: 101, type: "package", title: "Surf & Yoga Week", backoffice_title: "PKG Surf+Yoga 7n",
    description: "Seven nights by the ocean with daily surf lessons and optional yoga.",
    extended_description: "Arrive on Saturday, surf twice a day with certified coaches, practise yoga at sunrise or sunset, and share dinners with fellow surfers.",
    image: "surf-yoga-week", backoffice_category_id: 1, frontoffice_category_id: 11, location_id: 1,
    duration: { is_flexible: true, min: 7, default: 7, unit: "day", variants: [7, 14] }, pax: [1, 8],
    checkin: saturdays, promoted: true, capacity: 40,
    translations: {
      de: { title: "Surf- & Yoga-Woche", description: "Sieben Nächte am Meer mit täglichem Surfunterricht und optionalem Yoga." },
      es: { title: "Semana de Surf y Yoga", description: "Siete noches junto al mar con clases de surf diarias y yoga opcional." },
    },
  },
  {
    id: 201, type: "accommodation", title: "Ocean Dorm (men)", backoffice_title: "DORM-M", gender: "male",
    description: "Shared dorm for men, four beds per room, sea breeze included.", image: "dorm-men",
    backoffice_category_id: 2, location_id: 1, accommodation_type_id: 1,
    duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax: [1, 4],
    rooms: 2, beds_per_room: 4, capacity: 8,
    translations: { de: { title: "Ozean-Schlafsaal (Männer)" }, es: { title: "Dormitorio Océano (hombres)" } },
  },
  {
    id: 202, type: "accommodation", title: "Sunset Dorm (women)", backoffice_title: "DORM-F", gender: "female",
    description: "Shared dorm for women, four beds per room.", image: "dorm-women",
    backoffice_category_id: 2, location_id: 1, accommodation_type_id: 1,
    duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax: [1, 4],
    rooms: 2, beds_per_room: 4, capacity: 8,
    translations: { de: { title: "Sonnenuntergang-Schlafsaal (Frauen)" }, es: { title: "Dormitorio Atardecer (mujeres)" } },
  },
  {
    id: 203, type: "accommodation", title: "Twin Room", backoffice_title: "TWIN", gender: "mixed",
    description: "Shared twin room; book it for yourself with the single room supplement.", image: "twin-room",
    backoffice_category_id: 2, location_id: 1, accommodation_type_id: 2,
    duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax: [1, 2],
    rooms: 4, beds_per_room: 2, srs: { charge_minor: 2000, fixed: true }, capacity: 8,
    translations: { de: { title: "Zweibettzimmer" }, es: { title: "Habitación doble compartida" } },
  },
  {
    id: 204, type: "accommodation", title: "Mixed Garden Dorm", backoffice_title: "DORM-X", gender: "mixed",
    description: "Shared six-bed dorm for everyone, facing the garden.", image: "garden-dorm",
    backoffice_category_id: 2, location_id: 1, accommodation_type_id: 1,
    duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax: [1, 6],
    rooms: 1, beds_per_room: 6, srs: { charge_minor: 1500, fixed: false }, capacity: 6,
    translations: { de: { title: "Gemischter Garten-Schlafsaal" }, es: { title: "Dormitorio mixto del jardín" } },
  },
  {
    id: 205, type: "accommodation", title: "Sea View Double", backoffice_title: "DBL-SEA", is_private: true,
    description: "Private double room with a balcony over the bay.", image: "sea-view-double",
    backoffice_category_id: 2, location_id: 1, accommodation_type_id: 2,
    duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax: [1, 2],
    rooms: 3, beds_per_room: 2, capacity: 3,
    translations: { de: { title: "Doppelzimmer mit Meerblick" }, es: { title: "Doble con vistas al mar" } },
  },
  {
    id: 301, type: "activity", title: "Surf Lessons", backoffice_title: "SURF-LESSON",
    description: "Two daily sessions with a certified coach, boards and wetsuits included.", image: "surf-lessons",
    backoffice_category_id: 3, location_id: 1,
    duration: { is_flexible: false, min: 1, default: 1, unit: "day", variants: [] }, pax: [1, 8], capacity: 40,
    translations: { de: { title: "Surfunterricht" }, es: { title: "Clases de surf" } },
  },
  {
    id: 302, type: "activity", title: "Yoga Class", backoffice_title: "YOGA",
    description: "An hour of vinyasa flow on the deck.", image: "yoga-class",
    backoffice_category_id: 3, frontoffice_category_id: 12, location_id: 1,
    // Durations are whole days or hours (the spec's units): the class lasts one hour, as it says.
    duration: { is_flexible: false, min: 1, default: 1, unit: "hour", variants: [] }, pax: [1, 12],
    default_start_time: "08:00", timeslots: ["08:00", "18:00"], capacity: 12,
    translations: { de: { title: "Yogastunde", description: "Eine Stunde Vinyasa Flow auf dem Deck." }, es: { title: "Clase de yoga" } },
  },
  {
    id: 303, type: "activity", title: "Sunset Surf Session", backoffice_title: "SURF-SUNSET",
    description: "A guided evening session for surfers who can already catch green waves.", image: "sunset-surf",
    backoffice_category_id: 3, frontoffice_category_id: 12, location_id: 1,
    duration: { is_flexible: false, min: 2, default: 2, unit: "hour", variants: [] }, pax: [1, 8],
    default_start_time: "17:00", timeslots: ["17:00"], capacity: 8,
    translations: { de: { title: "Surfsession bei Sonnenuntergang" }, es: { title: "Sesión de surf al atardecer" } },
  },
  {
    id: 401, type: "rental", title: "Softboard Rental", backoffice_title: "RENT-SOFT",
    description: "A forgiving soft-top board, by the day.", image: "softboard",
    backoffice_category_id: 4, frontoffice_category_id: 13, location_id: 1,
    duration: { is_flexible: true, min: 1, default: 1, unit: "day", variants: [1, 3, 7] }, pax: [1, 1], capacity: 20,
    translations: { de: { title: "Softboard-Verleih" }, es: { title: "Alquiler de softboard" } },
  },
  {
    id: 402, type: "rental", title: "Performance Board Rental", backoffice_title: "RENT-PERF",
    description: "An epoxy shortboard for progressing surfers, by the day.", image: "performance-board",
    backoffice_category_id: 4, frontoffice_category_id: 13, location_id: 1,
    duration: { is_flexible: true, min: 1, default: 1, unit: "day", variants: [1, 3, 7] }, pax: [1, 1], capacity: 10,
    translations: { de: { title: "Performance-Board-Verleih" }, es: { title: "Alquiler de tabla de rendimiento" } },
  },
  {
    id: 501, type: "service", title: "Airport Transfer", backoffice_title: "TRANSFER-LIS",
    description: "Shared shuttle from Lisbon airport on arrival and departure day.", image: "airport-transfer",
    backoffice_category_id: 5, location_id: 1,
    duration: { is_flexible: false, min: 1, default: 1, unit: "day", variants: [] }, pax: [1, 8], capacity: null,
    translations: { de: { title: "Flughafentransfer" }, es: { title: "Traslado al aeropuerto" } },
  },
];

/** [id, product, season (null = base), amount in cents, unit, per, min_qty] */
type RateSeed = [number, number, number | null, number, "person" | "unit" | "room", "stay" | "night" | "day" | "hour", number];
const HIGH = 1, HOLIDAY = 2, LOW = 3;
export const demoRates: RateSeed[] = [
  [1, 101, null, 5500, "person", "night", 1], [2, 101, HIGH, 7000, "person", "night", 1],
  [3, 101, LOW, 4500, "person", "night", 1], [4, 101, HOLIDAY, 6500, "person", "night", 1],
  [5, 201, null, 2000, "person", "night", 1], [6, 201, HIGH, 2800, "person", "night", 1],
  [7, 202, null, 2000, "person", "night", 1], [8, 202, HIGH, 2800, "person", "night", 1],
  [9, 203, null, 3500, "person", "night", 1], [10, 203, HIGH, 4500, "person", "night", 1],
  [11, 204, null, 1800, "person", "night", 1],
  [12, 205, null, 9000, "room", "night", 1], [13, 205, HIGH, 12000, "room", "night", 1],
  [14, 301, null, 0, "person", "stay", 1],
  [15, 302, null, 1200, "person", "stay", 1], [16, 302, null, 1000, "person", "stay", 5],
  [17, 303, null, 3500, "person", "stay", 1],
  [18, 401, null, 1500, "unit", "day", 1], [19, 401, null, 1200, "unit", "day", 3],
  [20, 402, null, 2200, "unit", "day", 1],
  [21, 501, null, 4000, "person", "stay", 1],
];

/**
 * The demo's e-mail settings (docs/email.md): locally every message goes to wrangler's simulated
 * send_email binding (an .eml file, `npm run --silent mail -- list`), nothing leaves the machine.
 */
export const DEMO_MAIL = {
  email_from: "bookings@bluewave.example",
  contact_email: "hello@bluewave.example",
  contact_phone: "+351 261 000 000",
  notification_emails: ["bookings@bluewave.example"],
  brand_color: "#0a5d7a",
};

export function demoSeed(today: string): SeedStatement[] {
  const out: SeedStatement[] = [];
  const add = (sql: string, ...params: (string | number | null)[]) => out.push({ sql, params });
  const created = "2026-01-01T00:00:00Z";
  const config = {
    default_language: "en",
    languages: ["en", "de", "es"],
    guest_fields: { birthday: { request: true, required: true }, minimum_age: 12 },
    customer_fields: { address: { request: true, required: false }, phone: { request: true, required: true }, minimum_age: 18 },
    terms:
      "Blue Wave Surf Camp booking terms. 1. Your booking is confirmed when you check out. 2. Free cancellation up to 30 days before arrival; after that 50% of the price is due. 3. Surf lessons depend on the ocean: a lesson cancelled for safety is moved or refunded. 4. Guests under 18 travel with a guardian.",
    cart_lifetime_seconds: 600,
    rate_limit_per_minute: 600,
    widget_allow_loopback: true,
    widget_origins: [],
    ...DEMO_MAIL,
  };
  add(
    "INSERT OR IGNORE INTO businesses (id, slug, title, company_name, frontoffice_domain, config, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    B, "demo", "Blue Wave Surf & Yoga Camp", "Blue Wave Adventures Lda.", "demo.booking-platform.dev", JSON.stringify(config), created,
  );
  // A demo database made before the e-mail settings existed gains them (a setting present, even
  // null, is the owner's and stays).
  for (const [field, value] of Object.entries(DEMO_MAIL)) {
    add(
      `UPDATE businesses SET config = json_set(config, '$.${field}', json(?)) WHERE id = ? AND json_type(config, '$.${field}') IS NULL`,
      JSON.stringify(value), B,
    );
  }
  add("INSERT OR IGNORE INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (1, ?, 'EUR', 'Euro', '€', 1, 1)", B);
  add("INSERT OR IGNORE INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (2, ?, 'USD', 'US Dollar', '$', 1.085, 0)", B);
  for (const [id, title, desc, abbr] of [
    [1, "Vegetarian", "No meat or fish.", "VEG"],
    [2, "Vegan", "No animal products.", "VGN"],
    [3, "Gluten-free", "No wheat, barley or rye.", null],
  ] as const) add("INSERT OR IGNORE INTO diets (id, business_id, title, description, abbreviation) VALUES (?, ?, ?, ?, ?)", id, B, title, desc, abbr);
  for (const [id, title, desc, abbr] of [
    [1, "Beginner", "Never surfed, or only a few times.", "BEG"],
    [2, "Intermediate", "Catches green waves and turns.", "INT"],
    [3, "Advanced", "Surfs overhead waves with confidence.", null],
  ] as const) add("INSERT OR IGNORE INTO levels (id, business_id, title, description, abbreviation) VALUES (?, ?, ?, ?, ?)", id, B, title, desc, abbr);
  add("INSERT OR IGNORE INTO locations (id, business_id, title) VALUES (1, ?, 'Ericeira, Portugal')", B);
  add("INSERT OR IGNORE INTO locations (id, business_id, title) VALUES (2, ?, 'Peniche, Portugal')", B);
  for (const [id, kind, title] of [
    [1, "backoffice", "Packages"], [2, "backoffice", "Accommodation"], [3, "backoffice", "Activities"],
    [4, "backoffice", "Rentals"], [5, "backoffice", "Extras"],
    [11, "frontoffice", "Surf Camps"], [12, "frontoffice", "Classes & Sessions"], [13, "frontoffice", "Rentals"],
  ] as const) add("INSERT OR IGNORE INTO categories (id, business_id, kind, title) VALUES (?, ?, ?, ?)", id, B, kind, title);
  add("INSERT OR IGNORE INTO accommodation_types (id, business_id, title) VALUES (1, ?, 'Dorm')", B);
  add("INSERT OR IGNORE INTO accommodation_types (id, business_id, title) VALUES (2, ?, 'Room')", B);

  for (const p of demoProducts) {
    add(
      `INSERT OR IGNORE INTO products (id, business_id, type, title, backoffice_title, description, extended_description, image, gender,
         backoffice_category_id, frontoffice_category_id, location_id, accommodation_type_id, duration, pax_min, pax_max,
         default_start_time, is_private, allowed_checkin_days, is_on_timeslots, timeslots, is_promoted, rooms, beds_per_room,
         srs_charge_minor, srs_fixed, default_capacity, translations, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.id, B, p.type, p.title, p.backoffice_title, p.description, p.extended_description ?? p.description,
      JSON.stringify(img(p.image)), p.gender ?? null, p.backoffice_category_id, p.frontoffice_category_id ?? null,
      p.location_id, p.accommodation_type_id ?? null, JSON.stringify(p.duration), p.pax[0], p.pax[1],
      p.default_start_time ?? null, p.is_private ? 1 : 0, JSON.stringify(p.checkin ?? allDays),
      p.timeslots ? 1 : 0, JSON.stringify(p.timeslots ?? []), p.promoted ? 1 : 0, p.rooms ?? null,
      p.beds_per_room ?? null, p.srs?.charge_minor ?? null, p.srs ? (p.srs.fixed ? 1 : 0) : null, p.capacity,
      JSON.stringify(p.translations), created,
    );
  }

  // Seasons around today's year. Higher priority wins where segments overlap (holidays in low season).
  const year = Number(today.slice(0, 4));
  add("INSERT OR IGNORE INTO seasons (id, business_id, title, priority) VALUES (?, ?, 'High season', 1)", HIGH, B);
  add("INSERT OR IGNORE INTO seasons (id, business_id, title, priority) VALUES (?, ?, 'Holidays', 2)", HOLIDAY, B);
  add("INSERT OR IGNORE INTO seasons (id, business_id, title, priority) VALUES (?, ?, 'Low season', 0)", LOW, B);
  for (let y = year - 1; y <= year + 2; y++) {
    const seg = (season: number, n: number, from: string, to: string) =>
      add("INSERT OR IGNORE INTO season_segments (id, season_id, start_date, end_date) VALUES (?, ?, ?, ?)", y * 10 + n, season, from, to);
    seg(HIGH, 1, `${y}-06-15`, `${y}-09-15`);
    seg(HOLIDAY, 2, `${y}-12-19`, `${y + 1}-01-03`);
    seg(LOW, 3, `${y}-11-01`, `${y + 1}-03-31`);
    // The camp closes for Christmas: no check-in or stay on these nights.
    for (const d of [`${y}-12-24`, `${y}-12-25`]) {
      for (const pid of [101, 201, 202, 203, 204, 205]) {
        add("INSERT OR IGNORE INTO inventory (business_id, product_id, date, slot, capacity, blocked) VALUES (?, ?, ?, '', 0, 1)", B, pid, d);
      }
    }
  }

  for (const [id, product, season, amount, unit, per, minQty] of demoRates) {
    add(
      "INSERT OR IGNORE INTO rates (id, business_id, product_id, season_id, amount_minor, unit, per, min_qty) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      id, B, product, season, amount, unit, per, minQty,
    );
  }

  // The week package: surf lessons included, yoga on timeslots and a transfer as options, and a
  // board of one's choice as a group of alternatives (one of the two, on chosen days).
  add("INSERT OR IGNORE INTO package_groups (id, package_id, is_configurable_dates) VALUES (1, 101, 1)");
  for (const [id, product, group, role, min, max, def, configurable, sort] of [
    [1001, 301, null, "default", 1, 1, 1, 0, 1],
    [1002, 302, null, "option", 0, 1, 0, 1, 2],
    [1003, 501, null, "option", 0, 1, 0, 0, 3],
    [1004, 401, 1, "alternative", 0, 1, 0, 1, 4],
    [1005, 402, 1, "upgrade", 0, 1, 0, 1, 5],
  ] as const) {
    add(
      `INSERT OR IGNORE INTO package_items (id, business_id, package_id, product_id, group_id, role, qty_min, qty_max, qty_default, is_configurable_dates, sort)
       VALUES (?, ?, 101, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id, B, product, group, role, min, max, def, configurable, sort,
    );
  }
  for (const acc of [201, 202, 203, 204, 205]) {
    add("INSERT OR IGNORE INTO package_accommodations (package_id, accommodation_id) VALUES (101, ?)", acc);
  }
  return out;
}
