import { afterAll, beforeAll, expect, test } from 'vitest';
import { testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({
    manifest: { venues: [{ id: 'slow', package: 'predgate-adapter-slow', version: '1.x', config: {} }] },
    searchRoots: [thirdPartyProject],
    config: { requestBudgetSeconds: 0.1 },
  });
});
afterAll(() => app.stop());

test('a read past the request budget is a retryable EXCHANGE_NOT_AVAILABLE', async () => {
  const response = await app.call({ url: '/api/slow/fetchEvents?limit=1' });
  expect(response.statusCode).toBe(503);
  expect(JSON.parse(response.payload)).toMatchObject({ error: { code: 'EXCHANGE_NOT_AVAILABLE', retryable: true, detail: { budgetSeconds: 0.1 } } });
});

test('a write is never cut short by the budget: a caller told to retry might place an order twice', async () => {
  const response = await app.call({
    method: 'POST',
    url: '/api/slow/createOrder',
    payload: { args: [{ marketId: 'm', outcomeId: 'o', side: 'buy', type: 'limit', amount: 1, price: 0.5 }], credentials: { apiKey: 'k' } },
  });
  expect(response.statusCode, response.payload).toBe(200);
  expect(JSON.parse(response.payload)).toMatchObject({ success: true, data: { id: 'o-1', status: 'open' } });
});
