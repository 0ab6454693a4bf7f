import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * Counts down to a deadline once a second and re-renders its host. Announcements for screen
 * readers are rate-limited to the moments that matter (5 minutes, 1 minute, expiry), so a live
 * region is not read out every second.
 */
export class CountdownController implements ReactiveController {
  private deadline = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private announced = new Set<number>();
  secondsLeft = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly callbacks: { onThreshold?: (seconds: number) => void; onExpire?: () => void },
    private readonly thresholds = [300, 60],
  ) {
    host.addController(this);
  }

  /** Start (or move) the countdown to an ISO datetime; null stops it. */
  set(deadlineIso: string | null): void {
    const next = deadlineIso ? Date.parse(deadlineIso) : 0;
    if (next !== this.deadline) this.announced.clear();
    this.deadline = next;
    this.tick();
    this.stopTimer();
    if (this.deadline) this.timer = setInterval(() => this.tick(), 1000);
  }

  get running(): boolean {
    return this.deadline > 0 && this.secondsLeft > 0;
  }

  private tick(): void {
    if (!this.deadline) {
      this.secondsLeft = 0;
      return;
    }
    const left = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    this.secondsLeft = left;
    // Crossing a threshold announces once, with the time actually left (a cart that starts
    // below a threshold, e.g. a short lifetime, is announced at once).
    const crossed = this.thresholds.filter((t) => left <= t && left > 0 && !this.announced.has(t));
    if (crossed.length) {
      for (const t of crossed) this.announced.add(t);
      this.callbacks.onThreshold?.(left);
    }
    if (left === 0) {
      this.stopTimer();
      this.deadline = 0;
      this.callbacks.onExpire?.();
    }
    this.host.requestUpdate();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  hostConnected(): void {
    if (this.deadline) this.set(new Date(this.deadline).toISOString());
  }
  hostDisconnected(): void {
    this.stopTimer();
  }
}
