import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, VenueHttpClientOptions } from '@predgate/core';
import { afterAll, describe, expect, test } from 'vitest';
import type { OrderRequestBody } from '../src/account/built-order.js';
import { createLimitlessAdapter } from '../src/adapter.js';
import { configSchema } from '../src/config.js';

type Body = OrderRequestBody & Record<string, unknown>;

/**
 * The round-trip law of built orders: submitOrder(buildOrder(x)) sends the
 * venue exactly the request createOrder(x) sends (body and signed headers),
 * for every order control, and a built order that was changed, made for
 * another account or past its expiry is refused before anything is sent.
 */
const now = Date.UTC(2026, 7, 31, 7, 30);
const slug = 'eth-up-or-down-daily-1788105600';
const yes = '25018063611559838047404811982184442876005199660833597814711111046007291893507';
const no = '86217752017406384399250124806601173823592054178013370648812059211906538745612';
const credentials = {
  apiKey: 'tok_test',
  apiSecret: Buffer.from('limitless-test-secret').toString('base64'),
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
};
const market = readFileSync(new URL('./fixtures/payloads/market-by-slug.json', import.meta.url), 'utf8');
const placed = JSON.stringify({ order: { id: 'c0ffee00-0000-4000-8000-000000000001', price: 0.115, createdAt: null }, makerMatches: [] });

interface Sent {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The venue on 127.0.0.1: the market and the signer's profile are read, each order posted is kept under the caller's label. */
const received = new Map<string, Sent[]>();
const venueServer = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    const [, label, ...path] = request.url!.split('/');
    const route = `/${path.join('/')}`;
    response.setHeader('content-type', 'application/json');
    if (route === `/markets/${slug}`) return response.end(market);
    if (route.startsWith('/profiles/public/')) return response.end(JSON.stringify({ id: 4242, rank: { feeRateBps: 100 } }));
    const { 'lmts-api-key': key, 'lmts-timestamp': timestamp, 'lmts-signature': signature } = request.headers;
    received.get(label!)?.push({ body: text, headers: { 'lmts-api-key': key, 'lmts-timestamp': timestamp, 'lmts-signature': signature } });
    return response.end(placed);
  });
});
venueServer.listen(0, '127.0.0.1');
await once(venueServer, 'listening');
afterAll(() => new Promise((resolve) => venueServer.close(resolve)));

let venues = 0;
/** An adapter whose venue is the local one under a label of its own, with a fixed salt. */
function venue(privateKey = credentials.privateKey) {
  const label = `v${++venues}`;
  received.set(label, []);
  const baseUrl = `http://127.0.0.1:${(venueServer.address() as AddressInfo).port}/${label}`;
  // The venue's request spacing is not under test here: without it no test waits on the limiter's timers.
  const http = createHttpClientFactory();
  const adapter = createLimitlessAdapter(
    {
      http: Object.assign((options: VenueHttpClientOptions) => http({ ...options, rateLimit: undefined }), http),
      clock: fixedClock(now),
      logger: silentLogger,
      config: {},
      credentials: { ...credentials, privateKey },
    },
    configSchema.validate({ baseUrl }).value as never,
    { salt: () => 1_788_158_515_204_123n },
  );
  return { adapter, sent: received.get(label)! };
}

const base: CreateOrderParams = { marketId: slug, outcomeId: yes, side: 'buy', type: 'limit', amount: 10, price: 0.115 };
const orders: CreateOrderParams[] = [
  base,
  { ...base, timeInForce: 'IOC' },
  { ...base, postOnly: true },
  { ...base, outcomeId: no, side: 'sell', timeInForce: 'FOK', price: 0.9 },
  { ...base, type: 'market', side: 'sell', price: 0.101 },
];

describe('limitless built orders', () => {
  test.each(orders)('submitOrder(buildOrder(x)) sends exactly what createOrder(x) sends: %o', async (params) => {
    const direct = venue();
    const placedDirectly = await direct.adapter.createOrder!(params);
    const built = venue();
    const order = (await built.adapter.buildOrder!(params)) as BuiltOrder;
    expect(built.sent).toEqual([]);
    expect(order.raw).toEqual(JSON.parse(direct.sent[0]!.body));
    expect(await built.adapter.submitOrder!(order)).toEqual(placedDirectly);
    expect(built.sent).toEqual(direct.sent);
  });

  test('a built order travels as JSON (as a client sends it back) and is still sent as built', async () => {
    const { adapter, sent } = venue();
    const order = JSON.parse(JSON.stringify(await adapter.buildOrder!(base))) as BuiltOrder;
    await adapter.submitOrder!({ ...order, params: base });
    expect(sent.map((request) => JSON.parse(request.body) as unknown)).toEqual([order.raw]);
  });

  test.each([
    ['a changed price', (raw: Body) => ({ ...raw, order: { ...raw.order, price: 0.5 } }), 'built.raw.order', {}],
    ['a changed amount', (raw: Body) => ({ ...raw, order: { ...raw.order, takerAmount: 20_000_000 } }), 'built.raw.order', {}],
    ['params that no longer match the order', (raw: Body) => raw, 'built.raw.order', { amount: 20 }],
    ['another market', (raw: Body) => ({ ...raw, marketSlug: 'btc-up-or-down-5-min-1788160200' }), 'built.raw.order', {}],
    ['a member buildOrder never writes', (raw: Body) => ({ ...raw, onBehalfOf: 7 }), 'built.raw.onBehalfOf', {}],
    ['an expiration the venue would honour', (raw: Body) => ({ ...raw, order: { ...raw.order, expiration: '1788200000' } }), 'built.raw.order.expiration', {}],
    ['a signature that is not one', (raw: Body) => ({ ...raw, order: { ...raw.order, signature: '0x1234' } }), 'built.raw.order.signature', {}],
    ['a salt past 2^53', (raw: Body) => ({ ...raw, order: { ...raw.order, salt: 2 ** 60 } }), 'built.raw.order.salt', {}],
  ] as Array<[string, (raw: Body) => Body, string, Partial<CreateOrderParams>]>)('%s is refused before anything is sent', async (_, change, path, params) => {
    const { adapter, sent } = venue();
    const order = (await adapter.buildOrder!(base)) as BuiltOrder;
    await expect(adapter.submitOrder!({ ...order, params: { ...order.params, ...params }, raw: change(order.raw as unknown as Body) })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      detail: { path },
    });
    expect(sent).toEqual([]);
  });

  test('an order built by another account is refused unsent', async () => {
    const order = (await venue().adapter.buildOrder!(base)) as BuiltOrder;
    const other = venue('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    await expect(other.adapter.submitOrder!(order)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', detail: { path: 'built.raw.order.signer' } });
    expect(other.sent).toEqual([]);
  });

  test('a built order whose copied expiry has passed is refused unsent', async () => {
    const { adapter, sent } = venue();
    const order = (await adapter.buildOrder!(base)) as BuiltOrder;
    await expect(adapter.submitOrder!({ ...order, expiry: new Date(now - 1_000) })).rejects.toMatchObject({ code: 'BUILT_ORDER_EXPIRED' });
    expect(sent).toEqual([]);
  });
});
