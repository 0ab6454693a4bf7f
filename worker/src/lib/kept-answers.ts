/**
 * Answers one Worker process keeps for a few seconds, as plain data (status, headers, body text),
 * never a Response, a promise or any other I/O object: each request that finds one builds its own
 * Response from it. The caller's key must hold every input the answer depends on; an entry is
 * served until its `until` (on the caller's clock) and not before its `from` (a clock that went
 * back finds nothing). Bounded by count and by the bytes of the bodies kept; the least recently
 * used goes first.
 */
export interface KeptAnswer {
  status: number;
  headers: [string, string][];
  body: string;
  from: number;
  until: number;
}

export class KeptAnswers {
  private readonly entries = new Map<string, KeptAnswer>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string, now: number): KeptAnswer | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    this.drop(key);
    if (now < kept.from || now >= kept.until) return undefined;
    this.entries.set(key, kept);
    this.chars += kept.body.length;
    return kept;
  }

  set(key: string, answer: KeptAnswer): void {
    this.drop(key);
    if (answer.body.length > this.maxChars / 8) return;
    while (this.entries.size && (this.entries.size >= this.maxEntries || this.chars + answer.body.length > this.maxChars)) {
      this.drop(this.entries.keys().next().value!);
    }
    this.entries.set(key, answer);
    this.chars += answer.body.length;
  }

  /** Forget every answer (lib/process-memory.ts). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  private drop(key: string): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.chars -= kept.body.length;
  }
}
