/**
 * Stripe's SQL (migration 0480): a business's sealed Stripe secrets, the Stripe events its webhook
 * applied, and a stripe ledger entry's status moving on. The rules are manage/stripe.ts's.
 */
import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

export interface StripeAccountRow {
  business_id: number;
  secret_key_sealed: string | null;
  webhook_secret_sealed: string | null;
  updated_at: string;
}

export async function stripeAccount(db: D1, businessId: number): Promise<StripeAccountRow | null> {
  return db.prepare("SELECT * FROM stripe_accounts WHERE business_id = ?").bind(businessId).first<StripeAccountRow>();
}

/** Set the sealed secrets given (undefined: kept as they are; null: removed). */
export function saveStripeAccountStatement(db: D1, businessId: number, secrets: { secretKey?: string | null; webhookSecret?: string | null }, now: Date): D1PreparedStatement {
  const keepKey = secrets.secretKey === undefined ? 1 : 0;
  const keepHook = secrets.webhookSecret === undefined ? 1 : 0;
  return db
    .prepare(
      `INSERT INTO stripe_accounts (business_id, secret_key_sealed, webhook_secret_sealed, updated_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (business_id) DO UPDATE SET
         secret_key_sealed = CASE WHEN ?5 THEN secret_key_sealed ELSE excluded.secret_key_sealed END,
         webhook_secret_sealed = CASE WHEN ?6 THEN webhook_secret_sealed ELSE excluded.webhook_secret_sealed END,
         updated_at = excluded.updated_at`,
    )
    .bind(businessId, secrets.secretKey ?? null, secrets.webhookSecret ?? null, isoDateTime(now), keepKey, keepHook);
}

/** Record a Stripe event as applied: fails ('UNIQUE constraint failed: stripe_events') when it was already. */
export function stripeEventStatement(db: D1, businessId: number, eventId: string, type: string, now: Date): D1PreparedStatement {
  return db.prepare("INSERT INTO stripe_events (business_id, event_id, type, received_at) VALUES (?, ?, ?, ?)").bind(businessId, eventId, type, isoDateTime(now));
}
export const isEventSeen = (err: unknown) => /UNIQUE constraint failed: stripe_events/.test(String((err as Error)?.message ?? err));

export async function eventSeen(db: D1, businessId: number, eventId: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 FROM stripe_events WHERE business_id = ? AND event_id = ?").bind(businessId, eventId).first()) !== null;
}

/** The batch goes on only while the entry is still pending (else it aborts with guard_failed): an event applies once, and never after another settled it. */
export function entryPendingGuard(db: D1, businessId: number, entryId: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO batch_guard (reason, ok) SELECT 'payment_not_pending', EXISTS (SELECT 1 FROM payments WHERE id = ? AND business_id = ? AND status = 'pending')")
    .bind(entryId, businessId);
}

/** A pending entry's status moves on (the ledger's trigger allows only that), with the PaymentIntent when known. */
export function settleEntryStatement(db: D1, businessId: number, entryId: string, status: "succeeded" | "failed" | "canceled", intent: string | null, now: Date): D1PreparedStatement {
  return db
    .prepare("UPDATE payments SET status = ?, provider_intent = COALESCE(provider_intent, ?), updated_at = ? WHERE id = ? AND business_id = ? AND status = 'pending'")
    .bind(status, intent, isoDateTime(now), entryId, businessId);
}

/** Set a new stripe entry's PaymentIntent (a payment recorded from the event, not from a link). */
export function entryIntentStatement(db: D1, businessId: number, entryId: string, intent: string | null): D1PreparedStatement {
  return db.prepare("UPDATE payments SET provider_intent = ? WHERE id = ? AND business_id = ? AND provider_intent IS NULL").bind(intent, entryId, businessId);
}

/** The ledger entry whose provider reference is this (a Checkout Session's id, a Stripe refund's id). */
export async function entryByReference(db: D1, businessId: number, reference: string): Promise<{ id: string; booking_id: string; kind: string; status: string; amount_minor: number; currency: string; provider_intent: string | null } | null> {
  return db.prepare("SELECT id, booking_id, kind, status, amount_minor, currency, provider_intent FROM payments WHERE business_id = ? AND reference = ? ORDER BY created_at LIMIT 1").bind(businessId, reference).first();
}

/** Set a stripe refund's reference (Stripe's refund id) once Stripe answered. */
export function entryReferenceStatement(db: D1, businessId: number, entryId: string, reference: string): D1PreparedStatement {
  return db.prepare("UPDATE payments SET reference = ? WHERE id = ? AND business_id = ? AND reference IS NULL").bind(reference, entryId, businessId);
}

/** The booking of a ledger entry. */
export async function bookingOfEntry(db: D1, businessId: number, entryId: string): Promise<string | null> {
  return (await db.prepare("SELECT booking_id FROM payments WHERE id = ? AND business_id = ?").bind(entryId, businessId).first<{ booking_id: string }>())?.booking_id ?? null;
}

/** A second pending entry for the same Checkout Session was refused (migration 0480's unique index). */
export const isSessionTaken = (err: unknown) => /UNIQUE constraint failed: payments\.business_id, payments\.reference/.test(String((err as Error)?.message ?? err));
