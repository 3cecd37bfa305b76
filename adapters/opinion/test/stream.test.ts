import { readFileSync } from 'node:fs';
import { normalizeOrderBook } from '@predgate/core';
import { LocalSocketVenue, runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { localOpinionStream } from './support/local-stream.js';

const payload = (name: string) => JSON.parse(readFileSync(new URL(`fixtures/payloads/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
const socket = payload('websocket') as Record<string, Record<string, unknown>>;
/** Market 2764's recorded detail and YES book: the REST reads a stream starts from. */
const detail = (payload('market-detail-binary') as { result: { data: { marketId: number; yesTokenId: string; noTokenId: string } } }).result.data;
const recorded = (payload('orderbook') as { result: { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> } }).result;
const level = ({ price, size }: { price: string; size: string }) => ({ price: Number(price), size: Number(size) });

/** The recorded book, best first. */
const seeded = {
  bids: [
    { price: 0.57, size: 1840.25 },
    { price: 0.56, size: 5202 },
    { price: 0.55, size: 12990.7 },
    { price: 0.53, size: 400 },
    { price: 0.5, size: 25000 },
  ],
  asks: [
    { price: 0.58, size: 910.6 },
    { price: 0.59, size: 3300 },
    { price: 0.6, size: 8120.45 },
    { price: 0.62, size: 15000 },
    { price: 0.65, size: 2210 },
  ],
};
/** After the diff: the 0.57 bid taken out. */
const diffed = { bids: seeded.bids.slice(1), asks: seeded.asks };

runStreamSuites(test, {
  name: 'opinion',
  venue: () => LocalSocketVenue.start(),
  create: (venue) =>
    localOpinionStream(
      venue,
      { marketId: String(detail.marketId), tokens: [detail.yesTokenId, detail.noTokenId] },
      // Opinion's depth channel sends no snapshot: each book starts from REST, here the recorded one.
      { snapshot: async () => normalizeOrderBook({ bids: recorded.bids.map(level), asks: recorded.asks.map(level), timestamp: 1_795_316_400_412 }) },
    ),
  isSubscription: (frame) => (JSON.parse(frame) as { action: string }).action === 'SUBSCRIBE',
  script: {
    outcomeId: detail.yesTokenId,
    snapshot: { frames: [], book: seeded },
    update: { frames: [socket.depthDiff], book: diffed },
    // An unreadable diff makes the book read again over REST; the readable diff after it applies to that book.
    drift: { frames: ['not json', socket.unreadableDiff, socket.depthDiff], book: diffed },
    trades: {
      frames: [socket.lastTrade],
      batches: [
        [
          {
            id: '0x5f0c2a7be3d1c94e8a66f0e2d7b1a9c3e4f5061728394a5b6c7d8e9f0a1b2c3d',
            timestamp: 1_795_316_460_000,
            price: 0.57,
            amount: 12,
            side: 'sell',
            outcomeId: detail.yesTokenId,
          },
        ],
      ],
    },
    unknownOutcomes: ['123456789012345678901234567890'],
  },
});
