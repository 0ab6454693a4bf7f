/**
 * A new site owner's surf camp, built the way the owner would: through the private API alone (no
 * SQL, no seed code), with a private key made by `npm run keys`. Used by the own-business journey
 * (e2e/own-business.spec.ts), the back office's (e2e/admin-journey.spec.ts, its website) and the
 * catalog CLI's test (worker/test/cli/catalog-cli.node.ts).
 */

import { createServer } from "node:http";

export interface SurfCamp {
  packageId: number;
  dormId: number;
  roomId: number;
  surfId: number;
  yogaId: number;
  boardId: number;
  blockedDate: string;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Call the private API as the owner; any answer but the expected status fails with its problem. */
function privateApi(base: string, key: string) {
  return async <T = any>(method: string, path: string, body: unknown, expected: number): Promise<T> => {
    const res = await fetch(`${base}/private${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 600)}`);
    return JSON.parse(text).data as T;
  };
}

/**
 * Languages, terms and the widget's allowed origin; a 7-night surf package (Saturday to Saturday)
 * with a dorm for women and private rooms (couples), surf lessons and board rental as options, a
 * yoga class on weekly timeslots, two seasons with prices, and a blocked date.
 */
export async function buildSurfCamp(base: string, privateKey: string, widgetOrigin: string): Promise<SurfCamp> {
  const call = privateApi(base, privateKey);
  await call("PATCH", "/settings", {
    title: "Atlantic Surf House",
    languages: ["en", "de"],
    default_language: "en",
    terms: "Pay the rest on arrival. Free cancellation up to 14 days before.",
    terms_translations: { de: "Restzahlung bei Ankunft. Kostenlose Stornierung bis 14 Tage vorher." },
    widget_origins: [widgetOrigin],
    notification_emails: ["bookings@atlantic-surf.example"],
  }, 200);
  const location = await call("POST", "/catalog/locations", { title: "Peniche" }, 201);
  const camps = await call("POST", "/catalog/categories", { title: "Surf camps", kind: "frontoffice" }, 201);
  const dormType = await call("POST", "/catalog/accommodation-types", { title: "Dorm" }, 201);
  const roomType = await call("POST", "/catalog/accommodation-types", { title: "Room" }, 201);
  const low = await call("POST", "/catalog/seasons", { title: "Low season", priority: 0, segments: [{ start_date: day(-30), end_date: day(120) }] }, 201);
  const high = await call("POST", "/catalog/seasons", { title: "High season", priority: 1, segments: [{ start_date: day(121), end_date: day(400) }] }, 201);
  const week = { default: 7, min: 1, is_flexible: true };
  const surf = await call("POST", "/catalog/products", { type: "activity", title: "Surf lessons", capacity: 12, location_id: location.id, rates: [{ amount: 35, per: "day" }] }, 201);
  const yoga = await call("POST", "/catalog/products", {
    type: "activity",
    title: "Sunrise yoga",
    duration: { unit: "hour", default: 1 },
    capacity: 10,
    timeslots: [{ time: "07:00", capacity: 8, days: ["mon", "tue", "wed", "thu", "fri"] }, { time: "09:00", capacity: 12, days: ["sat", "sun"] }],
    rates: [{ amount: 12 }],
  }, 201);
  const board = await call("POST", "/catalog/products", { type: "rental", title: "Board rental", capacity: 15, duration: { default: 1, is_flexible: true }, rates: [{ amount: 15, unit: "unit", per: "day" }] }, 201);
  const dorm = await call("POST", "/catalog/products", {
    type: "accommodation",
    title: "Women's dorm",
    accommodation_type_id: dormType.id,
    location_id: location.id,
    duration: week,
    pax: { min: 1, max: 4 },
    accommodation: { rooms: 2, beds_per_room: 4, is_private: false, gender: "female", srs: { charge: 18, fixed: true } },
    rates: [{ amount: 22, per: "night" }],
  }, 201);
  const room = await call("POST", "/catalog/products", {
    type: "accommodation",
    title: "Private double",
    accommodation_type_id: roomType.id,
    location_id: location.id,
    duration: week,
    pax: { min: 1, max: 2 },
    accommodation: { rooms: 3, beds_per_room: 2, is_private: true },
    rates: [{ amount: 70, unit: "room", per: "night" }],
  }, 201);
  const pkg = await call("POST", "/catalog/products", {
    type: "package",
    title: "Surf week",
    description: "Seven nights by the sea, lessons if you want them.",
    translations: { de: { title: "Surfwoche", description: "Sieben Nächte am Meer." } },
    location_id: location.id,
    frontoffice_category_id: camps.id,
    duration: { default: 7, min: 7, max: 7 },
    pax: { min: 1, max: 6 },
    allowed_checkin_days: { mon: false, tue: false, wed: false, thu: false, fri: false, sat: true, sun: false },
    capacity: 14,
    rates: [{ season_id: low.id, amount: 45, per: "night" }, { season_id: high.id, amount: 65, per: "night" }],
    package: {
      accommodation_ids: [dorm.id, room.id],
      items: [
        { product_id: surf.id, role: "option", qty: { min: 0, max: 1, default: 1 } },
        { product_id: yoga.id, role: "option", qty: { min: 0, max: 1, default: 0 }, is_configurable_dates: true },
        { product_id: board.id, role: "option", qty: { min: 0, max: 1, default: 0 }, is_configurable_dates: true },
      ],
    },
  }, 201);
  // The camp is closed one day in the high season.
  const blockedDate = day(200);
  await call("PATCH", `/catalog/products/${pkg.id}/inventory`, { from: blockedDate, to: blockedDate, blocked: true }, 200);
  return { packageId: pkg.id, dormId: dorm.id, roomId: room.id, surfId: surf.id, yogaId: yoga.id, boardId: board.id, blockedDate };
}

/**
 * The surf camp's own website on `port` of loopback (reached as localhost, another origin than the
 * service's 127.0.0.1): one page embedding the widget for the package, as the owner would paste it.
 */
export async function serveOwnerSite(port: number, service: string, slug: string, packageId: number): Promise<{ close(): Promise<void> }> {
  const host = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><html lang="en"><title>Atlantic Surf House</title><h1>Atlantic Surf House</h1>
      <script type="module" src="${service}/widget.js"></script>
      <booking-widget business="${slug}" product="${packageId}"></booking-widget>`);
  });
  await new Promise<void>((done) => host.listen(port, "127.0.0.1", done));
  return { close: () => new Promise((done) => host.close(() => done())) };
}
