import { privateKeyToAccount } from 'viem/accounts';
import type * as accounts from 'viem/accounts';
import { expect, test, vi } from 'vitest';
import { createReplayingAdapter, fixtureCredentials } from './support.js';

vi.mock('viem/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof accounts>();
  return { ...actual, privateKeyToAccount: vi.fn(actual.privateKeyToAccount) };
});

const newsomYes = '54533043819946592547517511176940999955633860128497669742211153063842200957669';
const limitBuy = { marketId: '559652', outcomeId: newsomYes, side: 'buy', type: 'limit', amount: 10, price: 0.228 } as const;

test('an adapter derives its wallet from the key once, however many signed calls it makes', async () => {
  const derivations = vi.mocked(privateKeyToAccount);
  const adapter = createReplayingAdapter({ ...fixtureCredentials });
  await adapter.buildOrder(limitBuy);
  await adapter.createOrder(limitBuy);
  await adapter.fetchPositions();
  expect(derivations).toHaveBeenCalledTimes(1);
  await createReplayingAdapter({ ...fixtureCredentials }).buildOrder(limitBuy);
  expect(derivations).toHaveBeenCalledTimes(2);
});
