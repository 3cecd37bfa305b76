import { readFileSync } from 'node:fs';
import type { OrderLevel } from '@predgate/core';
import { LocalSocketVenue, runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { MarketStream } from '../src/streams/market-stream.js';

/*
 * The stream conformance on Polymarket's CLOB market channel, from the
 * recorded snapshot and delta: the client subscribes with `{assets_ids, type:
 * 'market'}` (then `{operation, assets_ids}`), the venue sends `book`
 * snapshots, `price_change` deltas and `last_trade_price` prints, often
 * several in one array frame.
 */

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/streams/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const book1 = fixture('ws-book-1.json') as { asset_id: string; market: string; bids: Level[]; asks: Level[] };
const change1 = fixture('ws-price-change-1.json');
const token = book1.asset_id;
/** Well formed, but no market of the venue has it. */
const unknownToken = '1'.repeat(77);

interface Level {
  price: string;
  size: string;
}

/** A side of the recorded book as numbers, best first, with `extra` levels set on it. */
function side(levels: Level[], order: 'bids' | 'asks', ...extra: OrderLevel[]): OrderLevel[] {
  const byPrice = new Map(levels.map((level) => [Number(level.price), Number(level.size)]));
  for (const level of extra) byPrice.set(level.price, level.size);
  return [...byPrice].map(([price, size]) => ({ price, size })).sort((a, b) => (order === 'bids' ? b.price - a.price : a.price - b.price));
}

/** The recorded delta of this token: 1,000 bid at 0.301. */
const deltaOfToken = (change1.price_changes as Array<{ asset_id: string }>).find((change) => change.asset_id === token)!;

runStreamSuites(test, {
  name: 'polymarket',
  venue: () => LocalSocketVenue.start(),
  create: (venue) =>
    new MarketStream({
      url: venue.url,
      pingIntervalMs: 1_000,
      backoff: { initialMs: 5, maxMs: 10 },
      tokenExists: (tokenId) => Promise.resolve(tokenId !== unknownToken),
    }),
  isSubscription: (frame) => {
    if (frame === 'PING') return false;
    const message = JSON.parse(frame) as { assets_ids?: string[]; operation?: string };
    return message.assets_ids !== undefined && message.operation !== 'unsubscribe';
  },
  script: {
    outcomeId: token,
    snapshot: { frames: [[book1]], book: { bids: side(book1.bids, 'bids'), asks: side(book1.asks, 'asks') } },
    update: {
      frames: [change1],
      book: { bids: side(book1.bids, 'bids', { price: 0.301, size: 1000 }), asks: side(book1.asks, 'asks') },
    },
    drift: {
      // One array frame: a message of a kind the channel does not send, then a readable delta of the token.
      frames: [
        'not json',
        [
          { event_type: 'mystery', asset_id: token },
          { ...change1, price_changes: [{ ...deltaOfToken, price: '0.302', size: '5' }] },
        ],
      ],
      book: { bids: side(book1.bids, 'bids', { price: 0.302, size: 5 }), asks: side(book1.asks, 'asks') },
    },
    trades: {
      frames: [
        {
          event_type: 'last_trade_price',
          asset_id: token,
          market: book1.market,
          price: '0.456',
          size: '219.217767',
          side: 'BUY',
          fee_rate_bps: '0',
          timestamp: '1790658680000',
          transaction_hash: '0xabc',
        },
      ],
      batches: [[{ id: '0xabc', timestamp: 1790658680000, price: 0.456, amount: 219.217767, side: 'buy', outcomeId: token }]],
    },
    unknownOutcomes: ['not-a-token', unknownToken],
  },
});
