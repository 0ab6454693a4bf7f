/**
 * The business's human check at checkout (Cloudflare Turnstile), when its bootstrap names a site
 * key: Turnstile's script is loaded on demand from challenges.cloudflare.com (the checkout steps'
 * chunk only, never for a business without the check), and the challenge is rendered explicitly
 * into a light-DOM child of the element (slot "human-check"), which the checkout step shows in
 * its form: Turnstile lives in the page's document, where its frame and script expect to be. The
 * token it hands over goes with the checkout (header X-Turnstile-Token); a token is good once, so
 * every attempt that did not book asks for a new one.
 */
const SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

interface Turnstile {
  render(el: HTMLElement, options: Record<string, unknown>): string | undefined;
  reset(id?: string): void;
  remove(id: string): void;
}
type WithTurnstile = Window & { turnstile?: Turnstile };

let loading: Promise<Turnstile> | null = null;

function loadTurnstile(): Promise<Turnstile> {
  const w = window as WithTurnstile;
  if (w.turnstile) return Promise.resolve(w.turnstile);
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => (w.turnstile ? resolve(w.turnstile) : reject(new Error("no turnstile")));
    script.onerror = () => {
      loading = null;
      reject(new Error("turnstile unavailable"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export class HumanCheck {
  /** The token of the solved challenge ("" until solved, and again once used or expired). */
  token = "";
  private id: string | undefined;
  private box: HTMLElement | null = null;

  constructor(private readonly host: HTMLElement) {}

  /** Show the challenge for `siteKey` (once per checkout). */
  async show(siteKey: string, language: string): Promise<void> {
    if (this.box?.isConnected) return;
    const box = (this.box = document.createElement("div"));
    box.slot = "human-check";
    this.host.appendChild(box);
    try {
      const turnstile = await loadTurnstile();
      if (this.box !== box) return;
      this.id = turnstile.render(box, {
        sitekey: siteKey,
        language,
        callback: (token: string) => (this.token = token),
        "expired-callback": () => (this.token = ""),
        "error-callback": () => void (this.token = ""),
      });
    } catch {
      // The check could not load: the checkout goes without a token, and the service says why.
    }
  }

  /** After an attempt that did not book: the token is spent, ask for a new one. */
  reset(): void {
    this.token = "";
    if (this.id !== undefined) (window as WithTurnstile).turnstile?.reset(this.id);
  }

  /** After the booking: the challenge goes. */
  remove(): void {
    if (this.id !== undefined) (window as WithTurnstile).turnstile?.remove(this.id);
    this.box?.remove();
    this.box = null;
    this.id = undefined;
    this.token = "";
  }
}
