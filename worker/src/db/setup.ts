import type { D1 } from "./d1";
/** What a new business has set up so far: Today's setup checklist (issue 29). One D1 round trip. */
export interface SetupProgress {
  /** The settings were saved at least once (an audit entry of kind settings). */
  settings: boolean;
  /** A product that is not archived has a price. */
  pricedProduct: boolean;
  /** Any booking was made (a test booking counts). */
  booking: boolean;
}

export async function setupProgress(db: D1, businessId: number): Promise<SetupProgress> {
  const [settings, priced, booking] = await db.batch<{ n: number }>([
    db.prepare("SELECT EXISTS (SELECT 1 FROM audit_log WHERE business_id = ? AND entity = 'settings') AS n").bind(businessId),
    db.prepare("SELECT EXISTS (SELECT 1 FROM products p JOIN rates r ON r.product_id = p.id WHERE p.business_id = ? AND p.archived_at IS NULL) AS n").bind(businessId),
    db.prepare("SELECT EXISTS (SELECT 1 FROM bookings WHERE business_id = ?) AS n").bind(businessId),
  ]);
  return { settings: !!settings.results[0]?.n, pricedProduct: !!priced.results[0]?.n, booking: !!booking.results[0]?.n };
}
