import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

const venues = ['mock', 'polymarket', 'kalshi', 'kalshi-demo'];
const packages: Record<string, string> = { mock: 'mock', polymarket: 'polymarket', kalshi: 'kalshi', 'kalshi-demo': 'kalshi' };

// No venue is reachable: every answer below comes from the gateway itself.
let app: TestApp;
beforeAll(async () => {
  const offline = new MockAgent();
  offline.disableNetConnect();
  app = await testApp({
    dispatcher: offline,
    manifest: {
      venues: venues.map((id) => ({ id, package: `@predgate/adapter-${packages[id]}`, version: '^0.1.0', config: id === 'mock' ? { events: 50 } : {} })),
    },
  });
});
afterAll(() => app.stop());

const body = (response: { payload: string }) => JSON.parse(response.payload) as { success: boolean; data?: unknown; error?: Record<string, unknown> };

describe('since/until on fetchOrderBook are the gateway’s, answered the same way for every venue', () => {
  const unarchived = venues.filter((venue) => venue !== 'polymarket');
  test.each(unarchived)('%s: GET and POST both get one NOT_SUPPORTED with one detail shape', async (venue) => {
    const responses = [
      await app.call({ url: `/api/${venue}/fetchOrderBook?outcomeId=x&since=1700000000000` }),
      await app.call({ method: 'POST', url: `/api/${venue}/fetchOrderBook`, payload: { args: ['x', null, { since: 1700000000000, until: 1700000600000 }] } }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(501);
      expect(body(response).error).toEqual({
        code: 'NOT_SUPPORTED',
        message: `fetchOrderBook with since/until reads historical books from the archive, which holds polymarket, not ${venue}`,
        retryable: false,
        exchange: venue,
        detail: { method: 'fetchOrderBook', parameters: ['since', 'until'], archivedVenues: ['polymarket'] },
      });
    }
  });

  test('polymarket: the archive answers, without asking the venue (an empty archive finds nothing)', async () => {
    const response = await app.call({ url: '/api/polymarket/fetchOrderBook?outcomeId=x&since=1700000000000' });
    expect(response.statusCode).toBe(404);
    expect(body(response).error).toMatchObject({ code: 'NOT_FOUND', exchange: 'polymarket' });
    const range = await app.call({
      method: 'POST',
      url: '/api/polymarket/fetchOrderBook',
      payload: { args: ['x', null, { since: 1700000000000, until: 1700000600000 }] },
    });
    expect(body(range)).toEqual({ success: true, data: [] });
  });
});

describe('sourceExchange on catalog calls is answered once, for every venue', () => {
  test.each(venues)('%s: another venue’s sourceExchange lists nothing, without asking the venue', async (venue) => {
    for (const url of [`/api/${venue}/fetchEvents?limit=3&sourceExchange=elsewhere`, `/api/${venue}/fetchMarkets?limit=3&exchange=elsewhere`]) {
      const response = await app.call({ url });
      expect(response.statusCode, response.payload).toBe(200);
      expect(body(response)).toEqual({ success: true, data: [] });
    }
  });

  test.each(venues)('%s: a single lookup scoped to another venue is not found', async (venue) => {
    const event = await app.call({ url: `/api/${venue}/fetchEvent?eventId=e1&sourceExchange=elsewhere` });
    expect(event.statusCode).toBe(404);
    expect(body(event).error).toMatchObject({ code: 'EVENT_NOT_FOUND', exchange: venue });
    const market = await app.call({ method: 'POST', url: `/api/${venue}/fetchMarket`, payload: { args: [{ marketId: 'm1', sourceExchange: 'elsewhere' }] } });
    expect(market.statusCode).toBe(404);
    expect(body(market).error).toMatchObject({ code: 'MARKET_NOT_FOUND', exchange: venue });
  });

  test('the venue’s own id is dropped before the adapter sees it: the answer equals the unscoped one', async () => {
    const scoped = body(await app.call({ url: '/api/mock/fetchEvents?limit=3&sourceExchange=mock' }));
    const plain = body(await app.call({ url: '/api/mock/fetchEvents?limit=3' }));
    expect((scoped.data as unknown[]).length).toBe(3);
    expect(scoped).toEqual(plain);
  });
});
