import { ctfOrderTypes } from '@predgate/core';
import type { CtfOrder } from '@predgate/core';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * Opinion's orders are CTF-exchange orders (the Polymarket contract's Order
 * struct) signed with EIP-712 under the domain "OPINION CTF Exchange",
 * version 1, on BNB Chain. The maker is the Gnosis Safe that holds the funds;
 * the signer is an owner of it (signature type 2, POLY_GNOSIS_SAFE).
 */
export const bnbChainId = 56;
export const safeSignatureType = 2;

export function orderDomain(exchange: Address) {
  return { name: 'OPINION CTF Exchange', version: '1', chainId: bnbChainId, verifyingContract: exchange } as const;
}

/** The signer's address for a private key (0x-prefixed or bare hex). */
export function signerAddress(privateKey: string): Address {
  return privateKeyToAccount(normalizeKey(privateKey)).address;
}

/** The order's EIP-712 signature (65 bytes, hex). */
export function signOrder(privateKey: string, exchange: Address, message: CtfOrder): Promise<Hex> {
  return privateKeyToAccount(normalizeKey(privateKey)).signTypedData({ domain: orderDomain(exchange), types: ctfOrderTypes, primaryType: 'Order', message });
}

function normalizeKey(privateKey: string): Hex {
  const key = privateKey.trim();
  return (key.startsWith('0x') ? key : `0x${key}`) as Hex;
}
