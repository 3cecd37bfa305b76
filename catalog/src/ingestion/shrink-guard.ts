import type { SweepRecord } from '../store.js';

/**
 * How far one sweep may shrink a venue's catalog before it is held back for
 * the next sweep to confirm: a venue having a bad day (an outage page, a
 * changed field that closes every market) must not empty the Router.
 */
export interface ShrinkGuard {
  /** Largest share of the venue's events one sweep may drop (0.5: half). */
  events: number;
  /** Largest share of its open markets one sweep may close or drop. */
  openMarkets: number;
}

export const defaultShrinkGuard: ShrinkGuard = { events: 0.5, openMarkets: 0.5 };

/** Why a sweep shrinks the catalog too much against the last committed one; undefined when it does not. */
export function shrinkReason(committed: SweepRecord | null, sweep: SweepRecord, guard: ShrinkGuard): string | undefined {
  if (!committed) return undefined;
  const dropped = (before: number, after: number) => (before > 0 ? (before - after) / before : 0);
  const events = dropped(committed.events, sweep.events);
  if (events > guard.events) {
    return `the sweep would drop ${percent(events)} of the venue's events (${committed.events} to ${sweep.events}), more than ${percent(guard.events)}`;
  }
  if (committed.openMarkets !== undefined && sweep.openMarkets !== undefined) {
    const closed = dropped(committed.openMarkets, sweep.openMarkets);
    if (closed > guard.openMarkets) {
      return `the sweep would close or drop ${percent(closed)} of the venue's open markets (${committed.openMarkets} to ${sweep.openMarkets}), more than ${percent(guard.openMarkets)}`;
    }
  }
  return undefined;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
