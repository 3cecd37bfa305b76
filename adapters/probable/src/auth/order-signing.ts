import { ctfOrderTypes } from '@predgate/core';
import type { CtfOrder } from '@predgate/core';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { orderDomain } from './contracts.js';
import type { SignatureType } from './credentials.js';

/** The CTF-exchange order as Probable signs it (expiration in Unix seconds, 0 for none). */
export interface OrderStruct extends CtfOrder {
  side: 0 | 1;
  signatureType: SignatureType;
}

/** The order's EIP-712 signature (65 bytes, hex) under Probable's exchange domain. */
export function signOrder(wallet: PrivateKeyAccount, exchange: Address, order: OrderStruct): Promise<Hex> {
  return wallet.signTypedData({ domain: orderDomain(exchange), types: ctfOrderTypes, primaryType: 'Order', message: order });
}
