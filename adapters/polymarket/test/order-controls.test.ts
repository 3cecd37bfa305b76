import { readFileSync } from 'node:fs';
import { createHttpClientFactory, fixedClock, isPredgateError } from '@predgate/core';
import type { CreateOrderParams } from '@predgate/core';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { createAdapter, fixtureCredentials, fixtureNow } from './support.js';

/** The recorded market (tick 0.001) and a placement answer, served by MockAgent; the body each placement sent is kept. */
const payload = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/payloads/${name}`, import.meta.url), 'utf8')) as object;
const limitBuy: CreateOrderParams = {
  marketId: '559652',
  outcomeId: '54533043819946592547517511176940999955633860128497669742211153063842200957669',
  side: 'buy',
  type: 'limit',
  amount: 10,
  price: 0.228,
};
const inAnHour = new Date(fixtureNow + 3_600_000);

let agent: MockAgent | undefined;
afterEach(async () => agent?.close());

/** Places the order against the mocked venue and answers the JSON body the CLOB received (undefined when nothing was posted). */
async function bodySentFor(params: CreateOrderParams): Promise<Record<string, unknown> | undefined> {
  agent = new MockAgent();
  agent.disableNetConnect();
  agent.get('https://gamma-api.polymarket.com').intercept({ path: '/markets/559652', method: 'GET' }).reply(200, payload('market-by-slug.json'));
  let sent: Record<string, unknown> | undefined;
  agent
    .get('https://clob.polymarket.com')
    .intercept({ path: '/order', method: 'POST' })
    .reply(200, (request) => {
      sent = JSON.parse(String(request.body)) as Record<string, unknown>;
      return payload('order-placed.json');
    });
  const adapter = createAdapter({ http: createHttpClientFactory({ dispatcher: agent }), clock: fixedClock(fixtureNow), credentials: fixtureCredentials });
  await adapter.createOrder(params);
  return sent;
}

async function refusalFor(params: CreateOrderParams) {
  const error = await bodySentFor(params).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isPredgateError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  const posted = !agent!.pendingInterceptors().some((interceptor) => interceptor.path === '/order');
  return { code: error.code, message: error.message, path: error.detail?.path, posted };
}

describe('Polymarket order controls: the placement body sent', () => {
  test('a limit order rests until cancelled: GTC, no expiration, not post-only', async () => {
    const sent = await bodySentFor(limitBuy);
    expect(sent).toMatchObject({ orderType: 'GTC', postOnly: false, order: { expiration: '0' } });
  });

  test('an expiry makes it GTD, its expiration in unix seconds', async () => {
    const sent = await bodySentFor({ ...limitBuy, expiry: inAnHour });
    expect(sent).toMatchObject({ orderType: 'GTD', postOnly: false, order: { expiration: String((fixtureNow + 3_600_000) / 1000) } });
  });

  test('an expiry between seconds is rounded down, so the order never outlives it', async () => {
    const sent = await bodySentFor({ ...limitBuy, timeInForce: 'GTD', expiry: new Date(fixtureNow + 3_600_999) });
    expect((sent?.order as { expiration: string }).expiration).toBe(String((fixtureNow + 3_600_000) / 1000));
  });

  test('post-only is sent as the CLOB’s postOnly', async () => {
    const sent = await bodySentFor({ ...limitBuy, timeInForce: 'GTC', postOnly: true });
    expect(sent).toMatchObject({ orderType: 'GTC', postOnly: true, order: { expiration: '0' } });
  });

  test('a market order is FOK by default, FAK for pmxt’s IOC', async () => {
    const market: CreateOrderParams = { ...limitBuy, type: 'market', price: 0.5 };
    expect(await bodySentFor(market)).toMatchObject({ orderType: 'FOK', postOnly: false });
    expect(await bodySentFor({ ...market, timeInForce: 'FOK' })).toMatchObject({ orderType: 'FOK' });
    expect(await bodySentFor({ ...market, timeInForce: 'IOC' })).toMatchObject({ orderType: 'FAK', postOnly: false, order: { expiration: '0' } });
  });

  test.each<[string, Partial<CreateOrderParams>, string]>([
    ['a resting market order', { type: 'market', timeInForce: 'GTC' }, 'params.timeInForce'],
    ['an immediate limit order', { timeInForce: 'FOK' }, 'params.timeInForce'],
    ['GTD without an expiry', { timeInForce: 'GTD' }, 'params.expiry'],
    ['an expiry on a GTC order', { timeInForce: 'GTC', expiry: inAnHour }, 'params.expiry'],
    ['an expiry under the venue’s minute of margin', { expiry: new Date(fixtureNow + 59_000) }, 'params.expiry'],
    ['post-only on a fill-at-once order', { type: 'market', timeInForce: 'IOC', postOnly: true }, 'params.postOnly'],
  ])('%s is refused with VALIDATION_ERROR naming the venue, nothing posted', async (_name, controls, path) => {
    const refusal = await refusalFor({ ...limitBuy, ...controls });
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', path, posted: false });
    expect(refusal.message).toMatch(/polymarket/);
  });
});
