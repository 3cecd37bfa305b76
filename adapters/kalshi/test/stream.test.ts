import { runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { kalshiUrl, localKalshiStream, localKalshiVenue, websocketPayloads as payloads } from './support/local-stream.js';

const ticker = 'KXFEDDECISION-26JUN-H0';
/** The book after the delta: the 0.42 YES bid taken out. */
const afterDelta = {
  bids: [
    { price: 0.41, size: 25.5 },
    { price: 0.08, size: 300 },
  ],
  asks: [
    { price: 0.45, size: 2 },
    { price: 0.46, size: 40 },
  ],
};

runStreamSuites(test, {
  name: 'kalshi',
  venue: () => localKalshiVenue(),
  create: (venue) => localKalshiStream([kalshiUrl(venue)]),
  isSubscription: (frame) => (JSON.parse(frame) as { cmd: string }).cmd === 'subscribe',
  script: {
    outcomeId: ticker,
    // YES bids as sent, NO bids at p as YES asks at 1 − p.
    snapshot: {
      frames: [payloads.snapshot],
      book: {
        bids: [
          { price: 0.42, size: 13 },
          { price: 0.41, size: 25.5 },
          { price: 0.08, size: 300 },
        ],
        asks: afterDelta.asks,
      },
    },
    update: { frames: [payloads.delta], book: afterDelta },
    drift: { frames: ['not json', { type: 'mystery', msg: {} }, payloads.delta], book: afterDelta },
    trades: {
      frames: [payloads.trade],
      batches: [[{ id: 'd91bc706-ee49-470d-82d8-11418bda6fed', timestamp: 1778767501000, price: 0.36, amount: 136, side: 'sell', outcomeId: ticker }]],
    },
    unknownOutcomes: ['KXNOPE-1', 'NOT A TICKER'],
  },
});
