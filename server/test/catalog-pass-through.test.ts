import type { Market } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { now, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * The same pass-through call answered live and from the catalog after a sweep
 * must give the same bytes: the client cannot tell which answered.
 */
let app: TestApp;
let clock = now;
let market: Market;
let closedMarket: Market;

beforeAll(async () => {
  app = await testApp({ clock: { now: () => clock } });
  const markets = await app.venues.get('mock')!.shared.fetchMarkets!({ limit: 50 });
  market = markets.find((candidate) => candidate.outcomes.length === 2)!;
  [closedMarket] = (await app.venues.get('mock')!.shared.fetchMarkets!({ status: 'closed', limit: 1 })) as [Market];
});
afterAll(() => app.stop());

const catalogAnswers = async (): Promise<number> => {
  const metrics = (await app.call({ url: '/metrics' })).payload;
  return [...metrics.matchAll(/predgate_catalog_answers_total\{[^}]*\} (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
};

type Call = [method: string, params: Record<string, unknown>];

const calls = (): Call[] => [
  ['fetchEvents', { limit: 5 }],
  ['fetchEvents', { limit: 5, offset: 10 }],
  ['fetchEvents', { query: 'Will', limit: 10 }],
  ['fetchEvents', { category: 'crypto', limit: 10 }],
  ['fetchEvents', { tags: ['elections', 'games'], limit: 10 }],
  ['fetchEvents', { status: 'closed', limit: 10 }],
  ['fetchEvents', { status: 'all', limit: 20, offset: 100 }],
  ['fetchEvents', { eventId: market.eventId!, limit: 1 }],
  ['fetchEvents', { sort: 'volume', limit: 3 }],
  ['fetchEvents', { sourceExchange: 'mock', limit: 3 }],
  ['fetchEvent', { eventId: market.eventId! }],
  ['fetchEvent', { eventId: closedMarket.eventId! }],
  ['fetchMarkets', { limit: 10 }],
  ['fetchMarkets', { limit: 10, offset: 7 }],
  ['fetchMarkets', { marketId: market.marketId, limit: 1 }],
  ['fetchMarkets', { outcomeId: market.outcomes[1]!.outcomeId, limit: 1 }],
  ['fetchMarkets', { eventId: market.eventId!, limit: 20 }],
  ['fetchMarkets', { query: 'will', limit: 10 }],
  ['fetchMarkets', { status: 'closed', limit: 5 }],
  ['fetchMarkets', { category: 'Sports', tags: ['games'], limit: 5 }],
  ['fetchMarket', { marketId: market.marketId }],
  ['fetchMarket', { outcomeId: market.outcomes[0]!.outcomeId }],
  ['fetchMarket', { slug: market.slug! }],
  ['fetchMarket', { marketId: closedMarket.marketId }],
];

describe('catalog-served pass-through', () => {
  test('answers byte for byte as the live venue, for every parameter set of the table', async () => {
    const table = calls();
    const post = (method: string, params: Record<string, unknown>) => app.call({ method: 'POST', url: `/api/mock/${method}`, payload: { args: [params] } });

    // Before any sweep the catalog has nothing fresh: every call is live.
    const live = [];
    for (const [method, params] of table) live.push((await post(method, params)).payload);
    expect(await catalogAnswers()).toBe(0);

    await app.catalog.sweep('mock');
    for (const [index, [method, params]] of table.entries()) {
      const before = await catalogAnswers();
      const answer = await post(method, params);
      expect(answer.statusCode, `${method} ${JSON.stringify(params)}`).toBe(200);
      expect(await catalogAnswers(), `${method} ${JSON.stringify(params)} should be catalog-served`).toBe(before + 1);
      expect(answer.payload, `${method} ${JSON.stringify(params)}`).toBe(live[index]);
    }
  });

  test('another venue’s sourceExchange is answered by the gateway, neither by the catalog nor by the venue', async () => {
    await app.catalog.sweep('mock');
    const before = await catalogAnswers();
    const answer = await app.call({ method: 'POST', url: '/api/mock/fetchEvents', payload: { args: [{ exchange: 'kalshi', limit: 3 }] } });
    expect(answer.payload).toBe('{"success":true,"data":[]}');
    expect(await catalogAnswers()).toBe(before);
  });

  test('goes live for parameters the catalog cannot answer, for calls with credentials, and once the catalog is stale', async () => {
    await app.catalog.sweep('mock');
    const goesLive = async (payload: object) => {
      const before = await catalogAnswers();
      const answer = await app.call({ method: 'POST', url: '/api/mock/fetchEvents', payload });
      expect(answer.statusCode).toBe(200);
      expect(await catalogAnswers(), JSON.stringify(payload)).toBe(before);
    };
    await goesLive({ args: [{ query: 'will', searchIn: 'description', limit: 5 }] });
    await goesLive({ args: [{ sort: 'liquidity', limit: 5 }] });
    await goesLive({ args: [{}] });
    await goesLive({ args: [{ limit: 5 }], credentials: { apiKey: 'someone' } });
    clock += 120_001;
    await goesLive({ args: [{ limit: 5 }] });
    clock = now;
  });

  test('a lookup the catalog does not hold goes to the venue, which answers with its own error', async () => {
    await app.catalog.sweep('mock');
    const answer = await app.call({ method: 'POST', url: '/api/mock/fetchEvent', payload: { kwargs: { eventId: 'mock-e999999' } } });
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.payload)).toMatchObject({ success: false, error: { code: 'EVENT_NOT_FOUND', exchange: 'mock' } });
  });
});
