import { ctfOrderTypes } from '@predgate/core';
import type { CtfOrder } from '@predgate/core';
import { getAddress } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** Base mainnet. */
export const chainId = 8453;

/** The CTF-exchange order signed under "Limitless CTF Exchange"; the verifying contract is the market's own exchange (`venue.exchange`). */
export function signOrder(privateKey: Hex, exchange: string, order: CtfOrder): Promise<Hex> {
  return privateKeyToAccount(privateKey).signTypedData({
    domain: { name: 'Limitless CTF Exchange', version: '1', chainId, verifyingContract: getAddress(exchange) },
    types: ctfOrderTypes,
    primaryType: 'Order',
    message: order,
  });
}
