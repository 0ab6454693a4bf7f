import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One per business: drains the outbox and delivers signed webhooks (see the private API issue). */
export class WebhookDelivery extends DurableObject<Env> {
  /** Wake up: deliver what the outbox holds (soon, from the alarm). */
  async kick(businessId: number): Promise<void> {
    await this.ctx.storage.put("business_id", businessId);
    const current = await this.ctx.storage.getAlarm();
    if (current === null) await this.ctx.storage.setAlarm(Date.now());
  }

  async alarm(): Promise<void> {}
}
