/**
 * What each client may have drawn (docs/scaling.md#share-pictures): a picture already held costs
 * nothing, but one to draw takes up to a second of CPU, so a client (pipeline/admin-guard.ts clientKey:
 * its address, or its IPv6 /64) may have at most `atOnce` waiting or being drawn and `perWindow`
 * drawn in a window. A link previewer asks for one picture when a link is shared; only a client
 * walking through every announcement's picture runs out. Nothing about a client is kept past the
 * window.
 */
export interface BudgetOptions {
  perWindow: number;
  atOnce: number;
  windowMs: number;
  /** Clients tracked in one window at most: past that, a new client waits for the next window. */
  maxClients: number;
}

interface Spent {
  drawn: number;
  underWay: number;
}

export type Grant = { granted: true; release(): void } | { granted: false; retryAfterMs: number };

export class DrawBudget {
  readonly #options: BudgetOptions;
  readonly #spent = new Map<string, Spent>();
  #windowStart = -Infinity;

  constructor(options: BudgetOptions) {
    this.#options = options;
  }

  /** Takes one draw from `client`'s budget, or says how long until it has one again. */
  take(client: string, now = Date.now()): Grant {
    const { perWindow, atOnce, windowMs, maxClients } = this.#options;
    if (now - this.#windowStart >= windowMs) {
      this.#windowStart = now;
      // Draws under way stay counted against their clients into the new window.
      for (const [client, spent] of this.#spent) {
        if (spent.underWay === 0) this.#spent.delete(client);
        else spent.drawn = 0;
      }
    }
    const windowLeftMs = Math.max(1, this.#windowStart + windowMs - now);
    let spent = this.#spent.get(client);
    if (spent === undefined) {
      if (this.#spent.size >= maxClients) return { granted: false, retryAfterMs: windowLeftMs };
      spent = { drawn: 0, underWay: 0 };
      this.#spent.set(client, spent);
    }
    if (spent.drawn >= perWindow) return { granted: false, retryAfterMs: windowLeftMs };
    if (spent.underWay >= atOnce) return { granted: false, retryAfterMs: 1000 };
    spent.drawn++;
    spent.underWay++;
    const counted = spent;
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        counted.underWay--;
      },
    };
  }
}
