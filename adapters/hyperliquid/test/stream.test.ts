import { readFileSync } from 'node:fs';
import { runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { localHyperliquidStream, localHyperliquidVenue } from './support/local-stream.js';

/** Websocket messages of side coin #2020 (outcome 202, side 0) in the documented shapes: each `l2Book` a whole book. */
const payloads = JSON.parse(readFileSync(new URL('fixtures/payloads/websocket.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const outcomeId = '100002020';

/** The later whole book, which replaces the first entirely. */
const later = {
  bids: [
    { price: 0.063, size: 100 },
    { price: 0.05, size: 7 },
  ],
  asks: [{ price: 0.066, size: 40 }],
};

runStreamSuites(test, {
  name: 'hyperliquid',
  venue: localHyperliquidVenue,
  create: localHyperliquidStream,
  isSubscription: (frame) => (JSON.parse(frame) as { method: string }).method === 'subscribe',
  script: {
    outcomeId,
    snapshot: {
      frames: [payloads.l2Book],
      book: {
        bids: [
          { price: 0.064, size: 100 },
          { price: 0.05, size: 7 },
        ],
        asks: [{ price: 0.0651, size: 40 }],
      },
    },
    update: { frames: [payloads.l2BookLater], book: later },
    drift: { frames: ['not json', payloads.l2BookUnreadable, payloads.l2BookLater], book: later },
    trades: {
      frames: [payloads.trades],
      batches: [[{ id: '921447733019882', timestamp: 1_783_620_879_512, price: 0.0646, amount: 527, side: 'sell', outcomeId }]],
    },
    // Not an asset id, so refused before anything is sent.
    unknownOutcomes: ['KXFED-26', '2020'],
  },
});
