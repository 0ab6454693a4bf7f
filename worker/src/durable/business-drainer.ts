import { DurableObject } from "cloudflare:workers";

/**
 * What the business's delivery objects (WebhookDelivery, EmailDelivery) share: one object per
 * business that drains an outbox of D1 rows, kicked by the request that wrote them and woken by
 * its alarm. Runs are serialized in memory (a kick during a run makes it go round once more); the
 * business's id is kept in storage, so an alarm after an eviction knows whose rows to read. Tests
 * wait for the object to be idle and may move its clock (ALLOW_TEST_CLOCK=1).
 */
export abstract class BusinessDrainer extends DurableObject<Env> {
  /** The readiness check's call (routes/health.ts /readyz): the namespace answers; nothing is read or kept. */
  ready(): "ok" {
    return "ok";
  }

  protected running: Promise<void> | null = null;
  protected again = false;
  protected businessId: number | undefined;
  /**
   * The request whose change started this work (the X-Request-Id its kick carried), so that the
   * object's log lines can be joined to that request's line; none for a run the alarm started.
   */
  protected cause: string | undefined;

  /** A kick: remember the business and the request that caused it. */
  protected async kicked(businessId: number, requestId: string | undefined): Promise<void> {
    await this.remember(businessId);
    this.cause = requestId;
  }

  /** One structured log line of this object's work, naming its business and, where there is one, the request that caused it. */
  protected log(level: "warn" | "error", msg: string, fields: Record<string, unknown> = {}): void {
    console.error(JSON.stringify({ level, msg, business: this.businessId, request_id: this.cause, ...fields }));
  }

  /** One pass over what is due; run() repeats it while kicks arrived during it. */
  protected abstract drain(): Promise<void>;

  protected async remember(businessId: number): Promise<void> {
    if (this.businessId === businessId) return;
    if ((await this.ctx.storage.get<number>("business_id")) !== businessId) await this.ctx.storage.put("business_id", businessId);
    this.businessId = businessId;
  }

  /** The business this object drains, as remembered (undefined: never kicked). */
  protected async business(): Promise<number | undefined> {
    return this.businessId ?? (await this.ctx.storage.get<number>("business_id"));
  }

  /** The alarm rings at `at` at the latest (an earlier one stays). */
  protected async alarmBy(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * Resolves when no run is in progress and none is due (tests wait on it after firing the
   * alarm: the runtime may have started a due alarm of its own just before). Gives up after 5 s.
   */
  async idle(): Promise<void> {
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      if (this.running) {
        await this.running;
        continue;
      }
      const alarm = await this.ctx.storage.getAlarm();
      if (alarm === null || alarm > Date.now()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Tests only (ALLOW_TEST_CLOCK=1): move this object's clock, so retries come due without sleeping. */
  async setTestNow(iso: string): Promise<void> {
    if (this.env.ALLOW_TEST_CLOCK !== "1") throw new Error("the test clock is disabled");
    await this.ctx.storage.put("clock_offset_ms", Date.parse(iso) - Date.now());
  }

  async alarm(): Promise<void> {
    this.cause = undefined;
    await this.run();
  }

  protected async clockOffset(): Promise<number> {
    if (this.env.ALLOW_TEST_CLOCK !== "1") return 0;
    return (await this.ctx.storage.get<number>("clock_offset_ms")) ?? 0;
  }

  protected run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
