import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams } from '@predgate/core';
import { readFileSync } from 'node:fs';
import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { kalshiPlugin } from '../src/index.js';
import { fixtureNow } from './support/replay.js';
import { testKeyId, testPrivateKey } from './support/test-key.js';

/**
 * `expiry` as Kalshi's `expiration_ts`, shown on the body the venue receives.
 * (Fixtures go through the method's argument check, which holds an expiry to
 * the wall clock; here the adapter is called directly on the fixture clock.)
 */
const placed = readFileSync(new URL('./fixtures/payloads/kalshi-demo/create-order.json', import.meta.url), 'utf8');

function venue() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const bodies: Array<Record<string, unknown>> = [];
  agent
    .get('https://external-api.kalshi.com')
    .intercept({ method: 'POST', path: '/trade-api/v2/portfolio/orders' })
    .reply(201, (options) => {
      bodies.push(JSON.parse(String(options.body)) as Record<string, unknown>);
      return placed;
    })
    .persist();
  const adapter = kalshiPlugin.create({
    http: createHttpClientFactory({ dispatcher: agent }),
    clock: fixedClock(fixtureNow),
    logger: silentLogger,
    config: {},
    credentials: { apiKey: testKeyId, privateKey: testPrivateKey },
  });
  return { adapter, bodies };
}

const inAnHour = new Date(fixtureNow + 3_600_000);
const order: CreateOrderParams = {
  marketId: 'KXHIGHNY-26MAY15-B73.5',
  outcomeId: 'KXHIGHNY-26MAY15-B73.5',
  side: 'buy',
  type: 'limit',
  amount: 10,
  price: 0.34,
};

describe('kalshi order expiry', () => {
  test('GTD with an expiry: good_till_canceled with expiration_ts in Unix seconds', async () => {
    const { adapter, bodies } = venue();
    await adapter.createOrder({ ...order, timeInForce: 'GTD', expiry: inAnHour });
    expect(bodies).toEqual([expect.objectContaining({ time_in_force: 'good_till_canceled', expiration_ts: Math.floor(inAnHour.getTime() / 1_000) })]);
  });

  test('a built order keeps its expiry: submitOrder sends the expiration_ts buildOrder wrote', async () => {
    const { adapter, bodies } = venue();
    const built = (await adapter.buildOrder({ ...order, expiry: inAnHour })) as BuiltOrder;
    expect(built.expiry).toEqual(inAnHour);
    await adapter.submitOrder(built);
    expect(bodies).toEqual([expect.objectContaining({ expiration_ts: Math.floor(inAnHour.getTime() / 1_000) })]);
  });

  test('a built order whose pmxt-copied expiry has passed is refused before anything is sent', async () => {
    const { adapter, bodies } = venue();
    const built = (await adapter.buildOrder(order)) as BuiltOrder;
    await expect(adapter.submitOrder({ ...built, expiry: new Date(fixtureNow - 1_000) })).rejects.toMatchObject({ code: 'BUILT_ORDER_EXPIRED' });
    expect(bodies).toEqual([]);
  });
});
