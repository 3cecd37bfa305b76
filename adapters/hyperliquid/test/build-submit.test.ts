import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams } from '@predgate/core';
import { afterAll, describe, expect, test } from 'vitest';
import plugin from '../src/index.js';
import { nonceLifetimeMs } from '../src/account/built-order.js';
import type { OrderRequestBody } from '../src/account/built-order.js';

type Body = OrderRequestBody & Record<string, unknown>;

/**
 * The round-trip law of built orders: submitOrder(buildOrder(x)) sends the
 * venue exactly the body createOrder(x) sends, for every order control, and
 * a built order that was changed or has outlived its nonce is refused before
 * anything is sent.
 */
const now = 1_783_620_900_000;
const credentials = {
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  walletAddress: '0x3b1e5a77c0d2f4a9e8b6c1d0f2a3b4c5d6e7f809',
};
const resting = JSON.stringify({ status: 'ok', response: { type: 'order', data: { statuses: [{ resting: { oid: 118223399001 } }] } } });

/** The exchange endpoint on 127.0.0.1: each body received is kept under the caller's label, every order rests. */
const received = new Map<string, unknown[]>();
const exchange = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    received.get(request.url!.split('/')[1]!)?.push(JSON.parse(text));
    response.setHeader('content-type', 'application/json').end(resting);
  });
});
exchange.listen(0, '127.0.0.1');
await once(exchange, 'listening');
afterAll(() => new Promise((resolve) => exchange.close(resolve)));

let venues = 0;
/** An adapter whose venue is the local exchange under a label of its own, at `at`. */
function venue(at = now) {
  const label = `v${++venues}`;
  received.set(label, []);
  const baseUrl = `http://127.0.0.1:${(exchange.address() as AddressInfo).port}/${label}`;
  const adapter = plugin.create({ http: createHttpClientFactory(), clock: fixedClock(at), logger: silentLogger, config: { baseUrl }, credentials });
  return { adapter, bodies: received.get(label)! };
}

const base: CreateOrderParams = { marketId: '173', outcomeId: '100001730', side: 'buy', type: 'limit', amount: 100, price: 0.19 };
const orders: CreateOrderParams[] = [
  base,
  { ...base, timeInForce: 'IOC' },
  { ...base, postOnly: true },
  { ...base, side: 'sell', reduceOnly: true, timeInForce: 'GTC', price: 0.25 },
  { ...base, type: 'market', side: 'sell', price: 0.15, reduceOnly: true },
];

describe('hyperliquid built orders', () => {
  test.each(orders)('submitOrder(buildOrder(x)) sends exactly what createOrder(x) sends: %o', async (params) => {
    const direct = venue();
    await direct.adapter.createOrder!(params);
    const built = venue();
    const order = (await built.adapter.buildOrder!(params)) as BuiltOrder;
    expect(built.bodies).toEqual([]);
    expect(order.raw).toEqual(direct.bodies[0]);
    await built.adapter.submitOrder!(order);
    expect(built.bodies).toEqual(direct.bodies);
  });

  test('a built order travels as JSON (as a client sends it back) and is still sent as signed', async () => {
    const { adapter, bodies } = venue();
    const order = JSON.parse(JSON.stringify(await adapter.buildOrder!(base))) as BuiltOrder;
    await adapter.submitOrder!(order);
    expect(bodies).toEqual([order.raw]);
  });

  test.each([
    ['a changed price', (raw: Body) => ({ ...raw, action: { ...raw.action, orders: [{ ...raw.action.orders[0], p: '0.5' }] } }), 'built.raw.action', {}],
    ['params that no longer match the action', (raw: Body) => raw, 'built.raw.action', { amount: 200 }],
    ['a member buildOrder never writes', (raw: Body) => ({ ...raw, vaultAddress: '0x0000000000000000000000000000000000000001' }), 'built.raw.vaultAddress', {}],
    ['a signature that is not one', (raw: Body) => ({ ...raw, signature: { ...raw.signature, v: 29 } }), 'built.raw.signature.v', {}],
  ] as Array<[string, (raw: Body) => Body, string, Partial<CreateOrderParams>]>)('%s is refused before anything is sent', async (_, change, path, params) => {
    const { adapter, bodies } = venue();
    const order = (await adapter.buildOrder!(base)) as BuiltOrder;
    await expect(adapter.submitOrder!({ ...order, params: { ...order.params, ...params }, raw: change(order.raw as unknown as Body) })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      detail: { path },
    });
    expect(bodies).toEqual([]);
  });

  test('a built order whose nonce the venue would no longer take, or whose expiry has passed, is refused unsent', async () => {
    const order = (await venue().adapter.buildOrder!(base)) as BuiltOrder;
    const late = venue(now + nonceLifetimeMs + 1);
    await expect(late.adapter.submitOrder!(order)).rejects.toMatchObject({ code: 'BUILT_ORDER_EXPIRED' });
    const expired = venue(now + 60_000);
    await expect(expired.adapter.submitOrder!({ ...order, expiry: new Date(now + 1_000) })).rejects.toMatchObject({ code: 'BUILT_ORDER_EXPIRED' });
    expect([...late.bodies, ...expired.bodies]).toEqual([]);
  });
});
