/**
 * A stored booking's dues read from D1 (issue 31): its products' own payment policies and the
 * business's default currency, then domain/booking-dues.ts bookingDues (the one computation).
 * For the readers that do not hold the catalog snapshot: the back office, the confirmation
 * e-mail, the balance reminders.
 */
import type { BusinessConfig } from "../contract/config";
import { bookingDues, type DuesBooking, type DuesLine } from "../domain/booking-dues";
import type { Dues } from "../domain/payment-policy";
import { productPaymentPolicies } from "./products";
import type { D1 } from "./d1";

/** The business's default currency (the booking's own when none is marked). */
export async function defaultCurrencyOf(db: D1, businessId: number, fallback: string): Promise<string> {
  const row = await db.prepare("SELECT iso_code FROM currencies WHERE business_id = ? AND is_default = 1 LIMIT 1").bind(businessId).first<{ iso_code: string }>();
  return row?.iso_code ?? fallback;
}

/** The dues of a stored booking with its lines under the business's configuration. */
export async function storedBookingDues(db: D1, businessId: number, config: Pick<BusinessConfig, "payment_policy" | "time_zone">, booking: DuesBooking, lines: readonly DuesLine[]): Promise<Dues> {
  const [own, currency] = await Promise.all([productPaymentPolicies(db, businessId, lines.map((l) => l.product_id)), defaultCurrencyOf(db, businessId, booking.currency)]);
  return bookingDues(config.payment_policy, booking, lines, own, config.time_zone, currency);
}
