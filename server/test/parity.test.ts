import { coreMethods, createMethodRegistry } from '@predgate/core';
import type { Market } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * The same call by GET query, POST `args`, POST `kwargs` and a flat POST body
 * must give identical data, for every method of the mock venue that allows GET.
 */
let app: TestApp;
let named: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  app = await testApp();
  const markets = ((await app.call({ url: '/api/mock/fetchMarkets?limit=50' })).result as { data: Market[] }).data;
  const market = markets.find((candidate) => candidate.outcomes.length === 2)!;
  const yes = market.outcomes[0]!;
  const no = market.outcomes[1]!;
  const order = await app.call({
    method: 'POST',
    url: '/api/mock/createOrder',
    payload: { marketId: market.marketId, outcomeId: yes.outcomeId, side: 'buy', type: 'limit', price: 0.01, amount: 3 },
  });
  const orderId = (order.result as { data: { id: string } }).data.id;
  // Named arguments of one representative call per method, as a client would send them in JSON.
  named = {
    fetchEvents: { limit: 2, query: 'will', tags: ['elections'], status: 'all' },
    fetchEvent: { eventId: market.eventId },
    fetchEventsPaginated: { limit: 2 },
    fetchMarkets: { limit: 2, sort: 'liquidity' },
    fetchMarket: { marketId: market.marketId },
    fetchMarketsPaginated: { limit: 2 },
    loadMarkets: { reload: false },
    fetchEventMetadata: { eventTicker: market.eventId },
    fetchSeries: { limit: 2 },
    fetchOrderBook: { outcomeId: yes.outcomeId, limit: 3 },
    fetchOrderBooks: { outcomeIds: [yes.outcomeId, no.outcomeId] },
    fetchTrades: { outcomeId: yes.outcomeId, limit: 5 },
    fetchOHLCV: { outcomeId: yes.outcomeId, resolution: '1h', limit: 4 },
    fetchOrder: { orderId },
    fetchOpenOrders: { marketId: market.marketId },
    fetchClosedOrders: { limit: 5 },
    fetchAllOrders: { limit: 5 },
    fetchMyTrades: { limit: 5 },
    fetchPositions: {},
    fetchBalance: {},
    describe: {},
  };
});
afterAll(() => app.stop());

const registry = createMethodRegistry();

function query(args: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search.toString();
}

/** The positional `args` array for named arguments, in the method's declared order. */
function positional(method: string, args: Record<string, unknown>): unknown[] {
  const declared = registry.get(method)!.declaration.args;
  const rest = { ...args };
  const list = declared.map((argument) => {
    if (argument.kind === 'params') return undefined;
    const value = rest[argument.name];
    delete rest[argument.name];
    return value;
  });
  const paramsIndex = declared.findIndex((argument) => argument.kind === 'params');
  if (paramsIndex >= 0 && Object.keys(rest).length > 0) list[paramsIndex] = rest;
  while (list.length > 0 && list.at(-1) === undefined) list.pop();
  return list.map((value) => value ?? null);
}

describe('GET and POST parity on the mock venue', () => {
  test('the table covers every GET-able method the mock implements', async () => {
    const { data } = (await app.call({ url: '/api/mock/describe' })).result as { data: { has: Record<string, unknown> } };
    const getable = Object.keys(coreMethods).filter((name) => registry.get(name)!.allowsGet && data.has[name] !== false);
    expect(Object.keys(named).sort()).toEqual(getable.sort());
  });

  test.each(Object.keys(coreMethods).filter((name) => registry.get(name)!.allowsGet))('%s', async (method) => {
    const args = named[method];
    if (!args) throw new Error(`no parity case for ${method}`);
    const answers = await Promise.all([
      app.call({ url: `/api/mock/${method}?${query(args)}` }),
      app.call({ method: 'POST', url: `/api/mock/${method}`, payload: { args: positional(method, args) } }),
      app.call({ method: 'POST', url: `/api/mock/${method}`, payload: { kwargs: args } }),
      app.call({ method: 'POST', url: `/api/mock/${method}`, payload: args }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.payload.slice(0, 300)).toBe(200);
    const [byGet, ...byPost] = answers.map((answer) => (answer.result as { data: unknown }).data);
    expect(byGet).toBeDefined();
    for (const data of byPost) expect(data).toEqual(byGet);
  });
});
