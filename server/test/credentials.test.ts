import type { Order } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
let order: Record<string, unknown>;
beforeAll(async () => {
  app = await testApp();
  const { data } = (await app.call({ url: '/api/mock/fetchMarkets?limit=50' })).result as {
    data: Array<{ marketId: string; outcomes: Array<{ outcomeId: string }> }>;
  };
  const market = data[0]!;
  order = { marketId: market.marketId, outcomeId: market.outcomes[0]!.outcomeId, side: 'buy', type: 'limit', price: 0.01, amount: 2 };
});
afterAll(() => app.stop());

const place = (credentials?: Record<string, unknown>) =>
  app.call({ method: 'POST', url: '/api/mock/createOrder', payload: { args: [order], ...(credentials ? { credentials } : {}) } });
const orders = async (credentials?: Record<string, unknown>) =>
  (
    (await app.call({ method: 'POST', url: '/api/mock/fetchAllOrders', payload: { args: [], ...(credentials ? { credentials } : {}) } })).result as {
      data: Order[];
    }
  ).data;

describe('venue credentials', () => {
  test("reach the adapter: a trader's calls share one instance, other traders and anonymous calls do not see it", async () => {
    const alice = { apiKey: 'alice-key', apiSecret: 'alice-secret' };
    expect((await place(alice)).statusCode).toBe(200);
    expect((await place({ apiSecret: 'alice-secret', apiKey: 'alice-key' })).statusCode).toBe(200);
    expect(await orders(alice)).toHaveLength(2);
    expect(await orders({ apiKey: 'bob-key' })).toEqual([]);
    expect(await orders()).toEqual([]);
  });

  test('are never echoed in an error', async () => {
    const response = await app.call({
      method: 'POST',
      url: '/api/mock/createOrder',
      payload: { args: [{ ...order, amount: 0.1 }], credentials: { privateKey: '0xdeadbeefcafe' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.payload).not.toContain('deadbeef');
  });
});

describe('credentials in the logs', () => {
  let flaky: TestApp;
  beforeAll(async () => {
    flaky = await testApp({
      manifest: { venues: [{ id: 'flaky', package: 'predgate-adapter-flaky', version: '1.0.0', config: {} }] },
      searchRoots: [thirdPartyProject],
      config: { logLevel: 'debug' },
    });
  });
  afterAll(() => flaky.stop());

  test('a failing call carrying credentials leaves none of them in the log output or the response', async () => {
    const credentials = { apiKey: 'AK-visible-0001', apiSecret: 'S3CR3T-value-0002', privateKey: '0xPRIVATE-0003', passphrase: 'pass-0004' };
    const response = await flaky.call({
      method: 'POST',
      url: '/api/flaky/createOrder',
      payload: { args: [order], credentials },
      headers: { 'x-pmxt-access-token': 'pmxt-token-0005' },
    });
    expect(response.statusCode).toBe(500);
    const output = flaky.logs.join('\n');
    expect(output).toContain('unexpected error');
    for (const secret of [...Object.values(credentials), 'pmxt-token-0005']) {
      expect(response.payload).not.toContain(secret);
      expect(output).not.toContain(secret);
    }
  });
});
