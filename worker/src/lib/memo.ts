/**
 * Answers this process already worked out, kept by a key that holds EVERY input they depend on
 * (for a calendar: the business, its catalog version, the products, the window and the live
 * inventory text D1 just returned). A changed input is a new key, so nothing is ever served stale;
 * the same inputs (the same dates asked again while nothing was booked) skip the work.
 * Bounded: the least recently used answer goes first; keys over `maxKeyChars` are not kept.
 */
export class Memo<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeyChars: number,
  ) {}

  get(key: string, produce: () => V): V {
    const known = this.peek(key);
    if (known !== undefined) return known;
    const value = produce();
    this.set(key, value);
    return value;
  }

  /** The value kept for `key` (now the most recently used), if any. */
  peek(key: string): V | undefined {
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, known);
    }
    return known;
  }

  set(key: string, value: V): void {
    if (key.length > this.maxKeyChars) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
