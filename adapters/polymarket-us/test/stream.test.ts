import { readFileSync } from 'node:fs';
import { fixedClock } from '@predgate/core';
import { LocalSocketVenue, runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { partsOfOutcomeId } from '../src/ids.js';
import { PolymarketUsStream } from '../src/streams/market-stream.js';

/** Markets websocket messages of one market in the documented shapes: `marketData` (the whole long-side book) and `trade`. */
const payloads = JSON.parse(readFileSync(new URL('fixtures/payloads/websocket.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const outcomeId = 'tec-mlb-nlchamp-2026-09-27-mil:long';
/** A test key: the seed is 32 bytes of 7s, never a real account's. */
const credentials = { apiKey: '9f2c1b7e-4a63-4d21-8e5f-0b7a3c9d1e42', privateKey: Buffer.alloc(32, 7).toString('base64') };

/** The later book, which replaces the first entirely. */
const later = {
  bids: [{ price: 0.26, size: 50 }],
  asks: [
    { price: 0.27, size: 12 },
    { price: 0.28, size: 5 },
  ],
};

/** The stream as the adapter calls it: by `<slug>:long|short`. */
function localStream(venue: LocalSocketVenue) {
  const stream = new PolymarketUsStream({
    url: `${venue.url}/v1/ws/markets`,
    venue: 'polymarket_us',
    credentials,
    clock: fixedClock(1_788_000_000_000),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
  });
  const parts = (id: string) => partsOfOutcomeId(id)!;
  return {
    watchOrderBook: (id: string) => stream.watchOrderBook(parts(id).slug, parts(id).side),
    watchTrades: (id: string) => stream.watchTrades(parts(id).slug, parts(id).side),
    close: () => stream.close(),
  };
}

runStreamSuites(test, {
  name: 'polymarket_us',
  // A subscription of a slug starting `nope-` is refused as the venue refuses a market it does not list.
  venue: () =>
    LocalSocketVenue.start({
      onFrame(text, socket) {
        const { subscribe } = JSON.parse(text) as { subscribe?: { requestId: string; marketSlugs: string[] } };
        if (subscribe?.marketSlugs.some((slug) => slug.startsWith('nope-')))
          socket.send(JSON.stringify({ requestId: subscribe.requestId, error: { message: 'market not found' } }));
      },
    }),
  create: localStream,
  isSubscription: (frame) => typeof (JSON.parse(frame) as { subscribe?: unknown }).subscribe === 'object',
  script: {
    outcomeId,
    snapshot: {
      frames: [payloads.marketData],
      book: {
        bids: [
          { price: 0.265, size: 27 },
          { price: 0.264, size: 113 },
        ],
        asks: [{ price: 0.27, size: 40 }],
      },
    },
    update: { frames: [payloads.marketDataLater], book: later },
    drift: { frames: ['not json', payloads.marketDataUnreadable, payloads.marketDataLater], book: later },
    trades: {
      frames: [payloads.trade],
      batches: [
        [
          {
            id: 'tec-mlb-nlchamp-2026-09-27-mil-2026-09-06T00:58:00Z-0.265-10',
            timestamp: Date.parse('2026-09-06T00:58:00Z'),
            price: 0.265,
            amount: 10,
            side: 'buy',
            outcomeId,
          },
        ],
      ],
    },
    unknownOutcomes: ['nope-mlb-2026:long'],
  },
});
