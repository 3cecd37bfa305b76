import { runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { localGeminiStream, localGeminiVenue } from './support/local-stream.js';

/*
 * The stream conformance on Gemini's market-data websocket, in the documented
 * shapes (see the local venue): partial-depth messages carry the top levels
 * whole; trades `{E (ns), s, t, p, q, m}`.
 */

const symbol = 'GEMI-DEMNOM2028-DEMNOM28AOC';
const depth = (bids: Array<[string, string]>, asks: Array<[string, string]>) => ({ lastUpdateId: 12_345_678, symbol: symbol.toLowerCase(), bids, asks });

runStreamSuites(test, {
  name: 'gemini-titan',
  venue: localGeminiVenue,
  create: localGeminiStream,
  isSubscription: (frame) => (JSON.parse(frame) as { method: string }).method === 'subscribe',
  script: {
    outcomeId: `${symbol}:yes`,
    snapshot: {
      frames: [
        depth(
          [
            ['0.27', '1200'],
            ['0.26', '300'],
          ],
          [['0.29', '500']],
        ),
      ],
      book: {
        bids: [
          { price: 0.27, size: 1200 },
          { price: 0.26, size: 300 },
        ],
        asks: [{ price: 0.29, size: 500 }],
      },
    },
    update: { frames: [depth([['0.28', '10']], [['0.3', '0']])], book: { bids: [{ price: 0.28, size: 10 }], asks: [] } },
    drift: {
      frames: ['not json', depth([['abc', '3']], []), depth([['0.25', '7']], [['0.31', '2']])],
      book: { bids: [{ price: 0.25, size: 7 }], asks: [{ price: 0.31, size: 2 }] },
    },
    trades: {
      frames: [{ E: 1_787_199_000_000_000_000, s: symbol.toLowerCase(), t: 2840140800000001, p: '0.27', q: '150', m: true }],
      batches: [[{ id: '2840140800000001', timestamp: 1_787_199_000_000, price: 0.27, amount: 150, side: 'sell', outcomeId: `${symbol}:yes` }]],
    },
    unknownOutcomes: ['GEMI-DEMNOM2028', 'GEMI-NOPE-X:yes'],
  },
});
