import { readFileSync } from 'node:fs';
import { replayedAdapter, runStreamSuites, startSocketIoVenue } from '@predgate/core/testkit';
import type { StreamUnderTest } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

/** `/markets` namespace events in the venue's shape: each `orderbookUpdate` the market's whole YES book (raw 6-decimal sizes). */
const payloads = JSON.parse(readFileSync(new URL('fixtures/payloads/websocket.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const pushed = (name: string) => `42/markets,${JSON.stringify(['orderbookUpdate', payloads[name]])}`;

/** The later book, which replaces the first entirely. */
const later = { bids: [{ price: 0.02, size: 5 }], asks: [{ price: 0.03, size: 2 }] };

runStreamSuites(test, {
  name: 'limitless',
  venue: () => startSocketIoVenue('/markets'),
  // The adapter itself, its market look-ups replayed from its fixtures: an outcome id is resolved as fetchOrderBook resolves it.
  create: (venue) =>
    replayedAdapter({
      plugin,
      fixtures: new URL('./fixtures', import.meta.url).pathname,
      now: Date.UTC(2026, 7, 31, 7, 30),
      config: { ws: venue.url, stream: { pingIntervalMs: 10_000, backoff: { initialMs: 5, maxMs: 10 } } },
    }) as StreamUnderTest,
  isSubscription: (frame) => frame.startsWith('42/markets,["subscribe_market_prices"'),
  script: {
    outcomeId: 'eth-up-or-down-daily-1788105600',
    snapshot: {
      frames: [pushed('orderbookUpdate')],
      book: {
        bids: [
          { price: 0.012, size: 83.334 },
          { price: 0.011, size: 100 },
        ],
        asks: [{ price: 0.219, size: 100 }],
      },
    },
    update: { frames: [pushed('orderbookUpdateLater')], book: later },
    drift: { frames: ['42/markets,not json', pushed('orderbookUpdateUnreadable'), pushed('orderbookUpdateLater')], book: later },
    // A token id the active listing (replayed from the fixtures) does not hold.
    unknownOutcomes: ['1'.repeat(40)],
  },
});
