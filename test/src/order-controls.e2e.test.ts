import type { Event, Market, Order, OrderBook } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * pmxt's order controls (`denom`, `slippage_pct`, time in force, post-only,
 * reduce-only, `expiry`) through the gateway: the mock venue honours every
 * one, and a venue that does not declare one refuses it by name.
 */
let app: Gateway;
let market: Market;
let outcomeId: string;
let book: OrderBook;
beforeAll(async () => {
  app = await gateway({
    manifest: {
      venues: [
        { id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 20 } },
        { id: 'smarkets', package: '@predgate/adapter-smarkets', version: '^0.1.0', config: {} },
      ],
    },
    // Nothing may reach a venue: the refusals below happen before any call.
    dispatcher: replayAgent([]),
  });
  const { data } = await app.json<{ data: Event[] }>('/api/mock/fetchEvents?limit=20');
  market = data.flatMap((event) => event.markets).find((candidate) => candidate.status === 'active')!;
  outcomeId = market.outcomes[0]!.outcomeId;
  book = (await app.json<{ data: OrderBook }>(`/api/mock/fetchOrderBook?outcomeId=${outcomeId}`)).data;
});
afterAll(() => app.stop());

interface Answer<T> {
  success: boolean;
  data: T;
  error: { code: string; message: string; detail: Record<string, unknown> };
}

async function post<T>(venue: string, method: string, args: unknown[], credentials: Record<string, string> = { apiKey: 'trader-1' }) {
  const response = await app.call({ method: 'POST', url: `/api/${venue}/${method}`, payload: { args, credentials } });
  return { status: response.statusCode, ...(JSON.parse(response.payload) as Answer<T>) };
}

const order = (extra: Record<string, unknown>) => ({ marketId: market.marketId, outcomeId, side: 'buy', ...extra });

describe('pmxt order controls on the mock venue', () => {
  test('denom quote turns a collateral amount into shares at the limit price', async () => {
    const answer = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: 0.01, amount: 5, denom: 'quote' })]);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: 'open', amount: 500, price: 0.01 });
  });

  test('postOnly is refused when the order would cross, and rests when it would not', async () => {
    const crossing = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: book.asks[0]!.price, amount: 1, postOnly: true })]);
    expect(crossing.status).toBe(400);
    expect(crossing.error.code).toBe('INVALID_ORDER');
    const resting = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: 0.01, amount: 1, postOnly: true })]);
    expect(resting.data).toMatchObject({ status: 'open', remaining: 1 });
  });

  test('IOC cancels what it cannot fill at once; FOK fills nothing unless it fills everything', async () => {
    const ioc = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: 0.01, amount: 3, timeInForce: 'IOC' })]);
    expect(ioc.data).toMatchObject({ status: 'cancelled', filled: 0, remaining: 0 });
    const depth = book.asks.reduce((sum, level) => sum + level.size, 0);
    const fok = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: 0.99, amount: depth + 1, timeInForce: 'FOK' })]);
    expect(fok.data).toMatchObject({ status: 'cancelled', filled: 0 });
  });

  test('slippage_pct bounds a market order: a fill beyond the bound is refused', async () => {
    const beyondBest = book.asks[0]!.size + 1;
    const bounded = await post<Order>('mock', 'createOrder', [order({ type: 'market', amount: beyondBest, slippage_pct: 0 })]);
    expect(bounded.error.code).toBe('NO_LIQUIDITY');
    const within = await post<Order>('mock', 'createOrder', [order({ type: 'market', amount: 1, slippage_pct: 5 })]);
    expect(within.data).toMatchObject({ status: 'filled', filled: 1, price: book.asks[0]!.price });
  });

  test('reduceOnly only sells', async () => {
    const answer = await post<Order>('mock', 'createOrder', [order({ type: 'limit', price: 0.01, amount: 1, reduceOnly: true })]);
    expect(answer.error.code).toBe('INVALID_ORDER');
  });

  test('bounds are checked: slippage_pct over 100, an expiry in the past, an unknown denom', async () => {
    for (const extra of [
      { type: 'market', amount: 1, slippage_pct: 101 },
      { type: 'limit', price: 0.01, amount: 1, expiry: Date.now() - 1_000 },
      { type: 'limit', price: 0.01, amount: 1, expiry: Date.now() + 400 * 24 * 3_600_000 },
      { type: 'limit', price: 0.01, amount: 1, denom: 'lots' },
    ]) {
      const answer = await post<Order>('mock', 'createOrder', [order(extra)]);
      expect(answer.status).toBe(400);
      expect(answer.error.code).toBe('VALIDATION_ERROR');
    }
  });

  test('a built order carrying expiry is submitted, and refused once that expiry has passed', async () => {
    const expiry = new Date(Date.now() + 30_000).toISOString();
    const built = await post<Record<string, unknown>>('mock', 'buildOrder', [order({ type: 'limit', price: 0.01, amount: 2, expiry })]);
    expect(built.status).toBe(200);
    const submitted = await post<Order>('mock', 'submitOrder', [{ ...built.data, expiry }]);
    expect(submitted.data).toMatchObject({ status: 'open', amount: 2 });
    const lapsed = await post<Order>('mock', 'submitOrder', [{ ...built.data, expiry: new Date(Date.now() - 1_000).toISOString() }]);
    expect(lapsed.error.code).toBe('BUILT_ORDER_EXPIRED');
  });
});

test('a venue that does not honour a control refuses it with VALIDATION_ERROR naming the venue and the control', async () => {
  const answer = await post<Order>('smarkets', 'createOrder', [order({ type: 'limit', price: 0.5, amount: 1, postOnly: true })], {
    apiKey: 'trader@example.com',
    privateKey: 'not-a-password',
  });
  expect(answer.status).toBe(400);
  expect(answer.error.code).toBe('VALIDATION_ERROR');
  expect(answer.error.message).toContain('smarkets');
  expect(answer.error.message).toContain('postOnly');
  expect(answer.error.detail).toMatchObject({ unsupported: ['postOnly'] });
});
