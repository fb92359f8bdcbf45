// Where drawn cards are kept beyond this process: nowhere for a process alone (its memory
// keeps them), Redis for replicas (shared-state/shared-cards.ts), so that a card is drawn once
// for the deployment rather than once per replica a link's unfurlers happen to reach.

export interface CardStore {
  /** The card's PNG, when some replica drew it; undefined on a miss or a failure. */
  get(key: string): Promise<Buffer | undefined>;
  /** Keeps a card for the others; a failure is the store's to report, never the caller's. */
  set(key: string, png: Buffer): void;
}

export const NO_CARD_STORE: CardStore = {
  get: () => Promise.resolve(undefined),
  set() {},
};
