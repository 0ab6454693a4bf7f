/**
 * Blocking and unblocking a product's dates from the back office's Calendar.
 *
 * Issue 19 (settings and catalog administration) owns capacity and blocked dates in its catalog
 * code (manage/catalog); until that is on main this small function makes the one inventory change
 * the back office needs, in one batch with its audit entry. When issue 19's inventory function
 * lands, the Calendar calls it instead and this file goes.
 */
import { auditStatements, type Actor } from "../db/audit-log";
import { setBlockedStatements } from "../db/calendar";
import { invalid, notFound } from "../lib/errors";
import { dateRange, daysBetween } from "../lib/time";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_BLOCK_DAYS = 366;

export async function setDatesBlocked(
  db: D1Database,
  actor: Actor,
  businessId: number,
  input: { productId: number; from: string; to: string; blocked: boolean },
  now: Date,
): Promise<number> {
  const errors = [];
  if (!DATE.test(input.from) || Number.isNaN(Date.parse(input.from))) errors.push({ path: "from", message: "must be a date YYYY-MM-DD" });
  if (!DATE.test(input.to) || Number.isNaN(Date.parse(input.to))) errors.push({ path: "to", message: "must be a date YYYY-MM-DD" });
  if (!errors.length && input.to < input.from) errors.push({ path: "to", message: "must not be before from" });
  if (!errors.length && daysBetween(input.from, input.to) + 1 > MAX_BLOCK_DAYS) errors.push({ path: "to", message: `at most ${MAX_BLOCK_DAYS} days at once` });
  if (errors.length) {
    const err = invalid(errors[0].path, errors[0].message);
    err.extra.errors = errors;
    throw err;
  }
  const product = await db
    .prepare("SELECT id, backoffice_title AS title, is_on_timeslots, timeslots FROM products WHERE id = ? AND business_id = ?")
    .bind(input.productId, businessId)
    .first<{ id: number; title: string; is_on_timeslots: number; timeslots: string }>();
  if (!product) throw notFound("The product");
  const dates = dateRange(input.from, input.to);
  const slots = product.is_on_timeslots ? slotTimes(product.timeslots) : [""];
  const what = input.blocked ? "Blocked" : "Unblocked";
  await db.batch([
    ...setBlockedStatements(db, businessId, product.id, dates, slots.length ? slots : [""], input.blocked),
    ...auditStatements(db, businessId, actor, [
      {
        action: input.blocked ? "blocked" : "unblocked",
        entity: "inventory",
        entityId: String(product.id),
        summary: `${what} ${product.title} from ${input.from} to ${input.to}`,
        after: { product_id: product.id, from: input.from, to: input.to, blocked: input.blocked },
      },
    ], now),
  ]);
  return dates.length;
}

/** A product's slot start times: ["08:00", ...] or, in issue 19's schedules, [{time: "08:00", ...}]. */
function slotTimes(text: string): string[] {
  try {
    const list = JSON.parse(text) as unknown[];
    return [...new Set(list.map((t) => (typeof t === "string" ? t : typeof (t as { time?: unknown })?.time === "string" ? (t as { time: string }).time : "")).filter(Boolean))];
  } catch {
    return [];
  }
}
