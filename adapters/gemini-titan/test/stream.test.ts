import { readFileSync } from 'node:fs';
import { runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { localGeminiStream, localGeminiVenue } from './support/local-stream.js';

/** Market-data websocket messages of one contract in the documented shapes: partial depth (the YES book's top, whole) and trades. */
const payloads = JSON.parse(readFileSync(new URL('fixtures/payloads/websocket.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const outcomeId = 'GEMI-DEMNOM2028-DEMNOM28AOC:yes';

/** The later depth message, which replaces the first entirely. */
const later = {
  bids: [{ price: 0.3, size: 1200 }],
  asks: [
    { price: 0.32, size: 500 },
    { price: 0.35, size: 20 },
  ],
};

runStreamSuites(test, {
  name: 'gemini-titan',
  venue: localGeminiVenue,
  create: localGeminiStream,
  isSubscription: (frame) => (JSON.parse(frame) as { method: string }).method === 'subscribe',
  script: {
    outcomeId,
    snapshot: {
      frames: [payloads.depth],
      book: {
        bids: [
          { price: 0.27, size: 1200 },
          { price: 0.26, size: 300 },
        ],
        asks: [{ price: 0.29, size: 500 }],
      },
    },
    update: { frames: [payloads.depthLater], book: later },
    drift: { frames: ['not json', payloads.depthUnreadable, payloads.depthLater], book: later },
    // `m: false`: the buyer was not the maker, so the taker bought YES.
    trades: {
      frames: [payloads.trade],
      batches: [[{ id: '2840140800000001', timestamp: 1_787_199_000_000, price: 0.27, amount: 150, side: 'buy', outcomeId }]],
    },
    // A symbol the local venue refuses as Gemini does, and ids that name no side.
    unknownOutcomes: ['GEMI-NOPE-1:yes', 'GEMI-DEMNOM2028-DEMNOM28AOC', 'a b:yes'],
  },
});
