import type { Trade } from '@predgate/core';
import { replayedAdapter, runStreamSuites, startSocketIoVenue } from '@predgate/core/testkit';
import type { TradeStreamUnderTest } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

/** The recorded pool (USD₮0, 6 decimals): the adapter looks it up for the option and the token decimals. */
const poolId = '6abf65b824801c4f3f7d6220';
const outcomeId = `rain:${poolId}:0`;

/** A pool event as the default namespace carries it. */
const event = (name: string, payload: unknown) => `42${JSON.stringify([`${name}/${poolId}`, payload])}`;
/** An AMM buy of option `choice`: collateral paid and shares bought, in base units. */
const entry = (id: string, choice: number, amount: string, optionAmount: string) =>
  event('enter-option', {
    pool: { _id: poolId, token: { tokenDecimals: 6 } },
    enterOption: { _id: id, createdAt: '2026-11-26T08:00:05.000Z', investment: [{ choiceIndex: choice, amount, optionAmount }] },
  });
/** A resting buy order filled: the taker sold. */
const fill = event('order-filled', {
  pool: { _id: poolId },
  filledOrder: { _id: 'order-1', orderType: 'buy', option: 0, pricePerShare: '0.42', quantity: '3000000', createdAt: '2026-11-26T08:00:07.000Z' },
});
const print = (id: string, at: string, price: number, amount: number, side: Trade['side']): Trade => ({
  id,
  timestamp: Date.parse(at),
  price,
  amount,
  side,
  outcomeId,
});

runStreamSuites(test, {
  name: 'rain',
  venue: () => startSocketIoVenue(''),
  // The adapter itself, its pool look-ups replayed from its fixtures: an outcome id is checked as fetchTrades checks it.
  create: (venue) =>
    replayedAdapter({
      plugin,
      fixtures: new URL('./fixtures', import.meta.url).pathname,
      now: Date.UTC(2026, 10, 26, 8),
      config: { ws: venue.url, stream: { pingIntervalMs: 10_000, backoff: { initialMs: 5, maxMs: 10 } } },
    }) as TradeStreamUnderTest,
  // Rain has no subscribe message (every client hears every pool): joining the namespace is what asks for the events.
  isSubscription: (frame) => frame === '40',
  script: {
    outcomeId,
    // 12.5 USD₮0 for 25 shares is a buy at 0.5; another option's buy reaches nobody here.
    trades: {
      frames: [entry('entry-1', 0, '12500000', '25000000'), entry('entry-2', 1, '3000000', '4000000'), fill],
      batches: [[print('entry-1', '2026-11-26T08:00:05.000Z', 0.5, 25, 'buy')], [print('order-1', '2026-11-26T08:00:07.000Z', 0.42, 3, 'sell')]],
    },
    drift: {
      frames: [entry('entry-3', 0, 'lots', '25000000'), '42["unterminated"', entry('entry-4', 0, '1000000', '2000000')],
      batches: [[print('entry-4', '2026-11-26T08:00:05.000Z', 0.5, 2, 'buy')]],
    },
    // An option the recorded pool does not have.
    unknownOutcomes: ['rain:6aa7cae7dffaf5aa153f7d87:7'],
  },
});
