// Where whole-list walks are counted beyond this process: a port with two adapters, chosen once
// by the composition root. A process alone counts its walks itself (list-walk.ts) and needs
// nothing more, so its leases are granted at once and say nothing about other readers; replicas
// sharing Redis count them for the whole deployment (shared-state/shared-walks.ts), so a
// client's third walk is refused whichever replica it reaches, and a list's second reader on
// any replica joins the first.

export interface WalkLease {
  /**
   * Another reader of the list was walking it somewhere in the deployment; undefined when
   * only this process's own count can tell.
   */
  joined: boolean | undefined;
  release(): void;
}

export type LeaseAnswer = { ok: true; lease: WalkLease } | { ok: false; retryAfterSeconds: number };

export interface WalkLeases {
  acquire(client: string, list: string): LeaseAnswer | Promise<LeaseAnswer>;
}

const HERE_ALONE: LeaseAnswer = { ok: true, lease: { joined: undefined, release() {} } };

/** A process alone: every walk its own registry admits is leased at once. */
export const LOCAL_WALK_LEASES: WalkLeases = { acquire: () => HERE_ALONE };
