import { replayedAdapter } from '@predgate/core/testkit';
import { expect, test } from 'vitest';
import plugin from '../src/index.js';

const slug = 'eth-up-or-down-daily-1788105600';
const orderId = '611badac-8dfc-48a0-b09e-59654adea1c5';

/** The recorded traffic of every fixture, one adapter instance across calls (as the gateway keeps one per set of credentials). */
const adapter = () =>
  replayedAdapter({
    plugin,
    fixtures: new URL('./fixtures', import.meta.url).pathname,
    now: Date.UTC(2026, 7, 31, 7, 30),
    credentials: { apiKey: 'tok_test', apiSecret: Buffer.from('limitless-test-secret').toString('base64') },
  });

test('an order listed by this instance is cancelled by its bare id: its market is remembered', async () => {
  const limitless = adapter();
  await expect(limitless.cancelOrder!(orderId)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', detail: { argument: 'orderId' } });
  const [open] = await limitless.fetchOpenOrders!(slug);
  expect(open?.id).toBe(orderId);
  const cancelled = await limitless.cancelOrder!(orderId);
  expect(cancelled).toMatchObject({ id: orderId, marketId: slug, status: 'cancelled', remaining: 0 });
  await limitless.close?.();
});

test('a bare id listed among closed orders is found by fetchOrder', async () => {
  const limitless = adapter();
  await limitless.fetchAllOrders!({ marketId: slug });
  expect(await limitless.fetchOrder!('c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f')).toMatchObject({
    status: 'filled',
    filled: 15,
    remaining: 0,
    type: 'market',
    side: 'sell',
  });
  await limitless.close?.();
});
