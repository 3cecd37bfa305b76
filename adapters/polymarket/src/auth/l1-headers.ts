import type { PrivateKeyAccount } from 'viem';
import { clobAuthMessage, clobAuthTypes } from '@predgate/core';
import { clobAuthDomain } from './contracts.js';

/**
 * L1 headers, which prove control of the wallet key; the CLOB asks for them
 * only to create or derive API keys. `timestamp` is in Unix seconds.
 */
export async function l1Headers(wallet: PrivateKeyAccount, timestamp: number, nonce = 0): Promise<Record<string, string>> {
  const signature = await wallet.signTypedData({
    domain: clobAuthDomain,
    types: clobAuthTypes,
    primaryType: 'ClobAuth',
    message: { address: wallet.address, timestamp: String(timestamp), nonce: BigInt(nonce), message: clobAuthMessage },
  });
  return {
    POLY_ADDRESS: wallet.address,
    POLY_SIGNATURE: signature,
    POLY_TIMESTAMP: String(timestamp),
    POLY_NONCE: String(nonce),
  };
}
