import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { orderDomain, orderTypes } from './contracts.js';
import type { SignatureType } from './credentials.js';

/** The CTF-exchange order struct, as signed. */
export interface OrderStruct {
  salt: bigint;
  maker: Address;
  signer: Address;
  taker: Address;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  /** Unix seconds; 0 for none. */
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  /** 0 BUY, 1 SELL. */
  side: 0 | 1;
  signatureType: SignatureType;
}

/** The order's EIP-712 signature (65 bytes, hex) under Probable's exchange domain. */
export function signOrder(wallet: PrivateKeyAccount, exchange: Address, order: OrderStruct): Promise<Hex> {
  return wallet.signTypedData({ domain: orderDomain(exchange), types: orderTypes, primaryType: 'Order', message: order });
}
