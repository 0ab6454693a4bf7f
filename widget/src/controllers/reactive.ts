import type { ReactiveControllerHost } from "lit";

/**
 * Lit's `@state()` for a reactive controller: every assignment to one of these fields asks the
 * host element to render again (updates are batched per microtask, so many assignments in one
 * action cost one render). The controller keeps its host in a `host` field. One call for all
 * the fields rather than a decorator on each: the same, in fewer bytes of widget.js.
 */
export function reactive(proto: object, keys: string[]): void {
  for (const key of keys) {
    const slot = Symbol(key);
    Object.defineProperty(proto, key, {
      get(this: Record<symbol, unknown>) {
        return this[slot];
      },
      set(this: Record<symbol, unknown> & { host?: ReactiveControllerHost }, value: unknown) {
        this[slot] = value;
        this.host?.requestUpdate();
      },
      configurable: true,
    });
  }
}
