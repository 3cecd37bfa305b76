import { fixedClock } from '@predgate/core';
import { engineIoOpen, startSocketIoVenue, until } from '@predgate/core/testkit';
import type { PredgateError, Trade } from '@predgate/core';
import { afterEach, expect, test } from 'vitest';
import { RainStream } from './pool-stream.js';
import type { OptionWatch } from './pool-stream.js';

const poolId = '6abf65b824801c4f3f7d6220';
const otherPool = '6aa7cae7dffaf5aa153f7d87';
const now = Date.UTC(2026, 10, 26, 8, 0);

const option = (choice: number, pool = poolId, decimals = 6): OptionWatch => ({ poolId: pool, choice, decimals, outcomeId: `rain:${pool}:${choice}` });

function watch(stream: RainStream, what: OptionWatch) {
  const batches: Trade[][] = [];
  const errors: PredgateError[] = [];
  const feed = stream.watchTrades(what);
  feed.start({ data: (trades) => batches.push(trades), error: (error) => errors.push(error) });
  return { batches, errors, stop: () => feed.stop() };
}

/** An AMM buy as `enter-option/{poolId}` carries it: collateral and shares in the pool token's base units. */
const entry = (choice: number, amount: string, optionAmount: string, extra: Record<string, unknown> = {}) => ({
  pool: { _id: poolId, token: { tokenSymbol: 'USD₮0', tokenDecimals: 6 } },
  enterOption: {
    _id: 'entry-1',
    createdAt: '2026-11-26T08:00:05.000Z',
    investment: [{ choiceIndex: choice, amount, optionAmount, optionName: 'Jannik Sinner' }],
    totalInvestment: amount,
    ...extra,
  },
});

/** A resting order filled, as `order-filled/{poolId}` carries it. */
const fill = (orderType: 'buy' | 'sell', option: number, pricePerShare: string, quantity: string) => ({
  pool: { _id: poolId, token: { tokenDecimals: 6 } },
  filledOrder: { _id: `order-${orderType}`, orderType, option, optionName: 'Jannik Sinner', pricePerShare, quantity, createdAt: '2026-11-26T08:00:07.000Z' },
});

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(open = engineIoOpen) {
  const venue = await startSocketIoVenue('', open);
  cleanup.push(() => venue.close());
  const stream = new RainStream({ url: venue.url, venue: 'rain', clock: fixedClock(now), pingIntervalMs: 10_000, backoff: { initialMs: 5, maxMs: 10 } });
  cleanup.push(() => stream.close());
  return { venue, stream };
}

test('joins the default namespace and turns AMM entries and order fills of the watched option into trades priced as fetchTrades prices them', async () => {
  const { venue, stream } = await setup();
  const sinner = watch(stream, option(0));
  await until(() => venue.joins() === 1, 'the namespace join');
  expect(venue.requestUrls).toEqual(['/socket.io/?EIO=4&transport=websocket']);

  // 12.5 USD₮0 for 25 shares: a buy at 0.5.
  venue.emit(`enter-option/${poolId}`, entry(0, '12500000', '25000000'));
  await until(() => sinner.batches.length === 1, 'the first trade');
  expect(sinner.batches[0]).toEqual([
    { id: 'entry-1', timestamp: Date.parse('2026-11-26T08:00:05.000Z'), price: 0.5, amount: 25, side: 'buy', outcomeId: `rain:${poolId}:0` },
  ]);

  // A resting buy filled is the taker selling; a resting sell filled the taker buying.
  venue.emit(`order-filled/${poolId}`, fill('buy', 0, '0.42', '3000000'));
  venue.emit(`order-filled/${poolId}`, fill('sell', 0, '0.44', '1500000'));
  await until(() => sinner.batches.length === 3, 'the fills');
  expect(sinner.batches[1]).toEqual([
    { id: 'order-buy', timestamp: Date.parse('2026-11-26T08:00:07.000Z'), price: 0.42, amount: 3, side: 'sell', outcomeId: `rain:${poolId}:0` },
  ]);
  expect(sinner.batches[2]![0]).toMatchObject({ id: 'order-sell', price: 0.44, amount: 1.5, side: 'buy' });

  // Another option of the pool, another pool, and other events reach nobody here.
  venue.emit(`enter-option/${poolId}`, entry(1, '1000000', '4000000'));
  venue.emit(`enter-option/${otherPool}`, entry(0, '1000000', '4000000'));
  venue.emit(`order-created/${poolId}`, { order: { _id: 'x' } });
  // An 18-decimal token (RAIN) named by the event, with the on-chain 1e18 price of a fill.
  venue.emit(`order-filled/${poolId}`, {
    pool: { _id: poolId, token: { tokenDecimals: 18 } },
    filledOrder: { _id: 'order-rain', orderType: 'sell', option: '0', orderPrice: '610000000000000000', optionAmount: '2000000000000000000000' },
  });
  await until(() => sinner.batches.length === 4, 'the RAIN fill');
  expect(sinner.batches[3]).toEqual([{ id: 'order-rain', timestamp: now, price: 0.61, amount: 2000, side: 'buy', outcomeId: `rain:${poolId}:0` }]);
  expect(sinner.errors).toEqual([]);
});

test('a second watcher shares the connection; the last one leaving closes it', async () => {
  const { venue, stream } = await setup();
  const first = watch(stream, option(0));
  await until(() => venue.joins() === 1, 'the namespace join');
  const second = watch(stream, option(0));
  const third = watch(stream, option(1, otherPool));
  venue.emit(`enter-option/${poolId}`, entry(0, '1000000', '2000000'));
  await until(() => first.batches.length === 1 && second.batches.length === 1, 'the trade for both watchers');
  expect(second.batches[0]![0]).toMatchObject({ price: 0.5, amount: 2 });
  expect(third.batches).toEqual([]);
  expect(venue.requestUrls).toHaveLength(1);
  expect(stream.poolIds).toEqual([poolId, otherPool]);

  await first.stop();
  await third.stop();
  expect(stream.poolIds).toEqual([poolId]);
  expect(stream.connected).toBe(true);
  await second.stop();
  expect(stream.connected).toBe(false);
  await until(() => venue.sockets.size === 0, 'the connection closed');
  expect(venue.frames).toContain('41');
});

test('answers Engine.IO pings and redials a dropped connection, joining again', async () => {
  const { venue, stream } = await setup();
  const sinner = watch(stream, option(0));
  await until(() => venue.joins() === 1, 'the namespace join');
  venue.send('2');
  await until(() => venue.frames.includes('3'), 'the pong');

  venue.drop();
  await until(() => sinner.errors.some((error) => error.code === 'NETWORK_ERROR'), 'the drop reported');
  expect(sinner.errors[0]!.retryable).toBe(true);
  await until(() => venue.joins() === 2 && venue.sockets.size === 1, 'the redial');
  venue.emit(`enter-option/${poolId}`, entry(0, '3000000', '4000000'));
  await until(() => sinner.batches.length === 1, 'a trade after the redial');
  expect(sinner.batches[0]![0]).toMatchObject({ price: 0.75, amount: 4 });
});

test('a connection silent past the venue ping interval plus timeout is dropped and redialled', async () => {
  const { venue, stream } = await setup('0{"sid":"engine-1","upgrades":[],"pingInterval":30,"pingTimeout":20}');
  const sinner = watch(stream, option(0));
  await until(() => venue.joins() >= 2, 'a redial after silence');
  expect(sinner.errors.some((error) => error.code === 'NETWORK_ERROR')).toBe(true);
});

test('an unreadable event is a retryable error naming what was wrong, never a wrong trade', async () => {
  const { venue, stream } = await setup();
  const sinner = watch(stream, option(0));
  await until(() => venue.joins() === 1, 'the namespace join');
  const bad: Array<[string, unknown, RegExp]> = [
    [`enter-option/${poolId}`, { pool: { _id: poolId } }, /without an enterOption object/],
    [`enter-option/${poolId}`, entry(0, '12.5', '25000000'), /collateral \(amount\) is not a base-unit integer/],
    [
      `enter-option/${poolId}`,
      { ...entry(0, '1', '2'), enterOption: { _id: 'e', investment: [{ choiceIndex: 0, amount: '1000000' }] } },
      /without the shares bought/,
    ],
    [`enter-option/${poolId}`, { ...entry(0, '1', '2'), pool: { token: { tokenDecimals: 'six' } } }, /tokenDecimals is not a decimal count/],
    [`order-filled/${poolId}`, fill('buy', 0, '1.5', '1000000'), /not a price between 0 and 1/],
    [`order-filled/${poolId}`, { ...fill('buy', 0, '0.4', '1'), filledOrder: { _id: 'o', orderType: 'hold', option: 0 } }, /orderType is neither buy nor sell/],
    [`order-filled/${poolId}`, fill('sell', 0, '0.4', '-5'), /filled shares/],
    [`order-filled/${poolId}`, 'text', /not an object/],
  ];
  for (const [name, payload, message] of bad) {
    const seen = sinner.errors.length;
    venue.emit(name, payload);
    await until(() => sinner.errors.length > seen, `the error for ${String(message)}`);
    expect(sinner.errors.at(-1)).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    expect(sinner.errors.at(-1)!.message).toMatch(message);
  }
  const seen = sinner.errors.length;
  venue.send('42{"not":"an event"}');
  venue.send('42["unterminated"');
  await until(() => sinner.errors.length === seen + 2, 'the framing errors');
  expect(sinner.errors.at(-2)!.message).toMatch(/an event without a name/);
  expect(sinner.errors.at(-1)!.message).toMatch(/not JSON/);
  expect(sinner.batches).toEqual([]);
});

test('a refused connection is reported and redialled', async () => {
  const { venue, stream } = await setup();
  const sinner = watch(stream, option(0));
  await until(() => venue.joins() === 1, 'the namespace join');
  venue.send('44{"message":"Not authorized"}');
  await until(() => sinner.errors.some((error) => /Not authorized/.test(error.message)), 'the refusal');
  await until(() => venue.joins() === 2, 'the redial');
});
