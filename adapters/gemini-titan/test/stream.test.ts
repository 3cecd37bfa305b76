import { fixedClock } from '@predgate/core';
import { LocalSocketVenue, runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { GeminiStream } from '../src/streams/market-stream.js';

/*
 * The stream conformance on Gemini's market-data websocket, in the documented
 * shapes: `{"id":"1","method":"subscribe","params":["<symbol>@depth20"]}`
 * answered `{"id":"1","status":200}` (or an error for a symbol it does not
 * list); partial-depth messages carry the top levels whole; trades `{E (ns), s, t, p, q, m}`.
 */

const symbol = 'GEMI-DEMNOM2028-DEMNOM28AOC';
const depth = (bids: Array<[string, string]>, asks: Array<[string, string]>) => ({ lastUpdateId: 12_345_678, symbol: symbol.toLowerCase(), bids, asks });

runStreamSuites(test, {
  name: 'gemini-titan',
  venue: () =>
    LocalSocketVenue.start({
      onFrame(text, socket) {
        const { id, params } = JSON.parse(text) as { id: string; params: string[] };
        const refused = params.some((name) => name.startsWith('GEMI-NOPE'));
        socket.send(JSON.stringify(refused ? { id, status: 400, error: { code: -1, msg: 'Invalid symbol' } } : { id, status: 200 }));
      },
    }),
  create: (venue) =>
    new GeminiStream({
      url: venue.url,
      venue: 'gemini-titan',
      clock: fixedClock(Date.UTC(2026, 10, 26)),
      depth: 'depth20',
      pingIntervalMs: 20,
      backoff: { initialMs: 5, maxMs: 10 },
    }),
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
