import type { VenueIngestion } from '@predgate/catalog';
import { describe, expect, test } from 'vitest';
import { firstRoundSummary } from './startup-summary.js';

function status(venue: string, outcome: { events: number } | { code: string; message?: string }): VenueIngestion {
  const swept = 'events' in outcome;
  return {
    venue,
    lastSweep: swept ? { venue, sweepId: `${venue}-1`, startedAt: 0, finishedAt: 1, events: outcome.events, markets: 0, outcomes: 0 } : null,
    lastError: swept ? null : { code: outcome.code, message: outcome.message ?? `${venue} failed`, at: 1 },
    nextAttemptAt: null,
    running: false,
    consecutiveFailures: swept ? 0 : 1,
    heldSweep: null,
    sweeper: null,
  };
}

describe('firstRoundSummary', () => {
  test('one line for what was swept, one for every unreachable venue, one for the venues that need credentials', () => {
    const lines = firstRoundSummary([
      status('mock', { events: 2000 }),
      status('kalshi', { code: 'NETWORK_ERROR' }),
      status('metaculus', { code: 'AUTHENTICATION_ERROR' }),
      status('polymarket', { code: 'EXCHANGE_NOT_AVAILABLE' }),
      status('opinion', { code: 'AUTHENTICATION_ERROR' }),
      status('limitless', { code: 'RATE_LIMIT_EXCEEDED' }),
    ]);
    expect(lines).toEqual([
      'Catalog: 1 venue swept (mock 2,000 events)',
      'Unreachable, retried in the background (see /v0/status): kalshi, polymarket, limitless',
      "Need credentials to be swept (give them in the venue's manifest config; calls with credentials still work): metaculus, opinion",
    ]);
  });

  test('other failures name their code and message; with nothing swept it says so; a clean round is one line', () => {
    expect(firstRoundSummary([status('odd', { code: 'INTERNAL_ERROR', message: 'odd broke' })])).toEqual([
      'Catalog: no venue swept yet',
      'Sweep failed, retried in the background: odd (INTERNAL_ERROR: odd broke)',
    ]);
    expect(firstRoundSummary([status('mock', { events: 5 }), status('kalshi', { events: 12 })])).toEqual([
      'Catalog: 2 venues swept (mock 5 events, kalshi 12 events)',
    ]);
  });
});
