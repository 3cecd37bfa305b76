import { concat, hashDomain, hashStruct, numberToHex, stringToHex } from 'viem';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { chainId, orderTypes, zeroBytes32 } from './contracts.js';
import type { OrderDomain } from './contracts.js';
import type { SignatureType } from './credentials.js';

/** The CLOB V2 order struct, as signed. */
export interface OrderStruct {
  salt: bigint;
  maker: Address;
  signer: Address;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  /** 0 BUY, 1 SELL. */
  side: 0 | 1;
  signatureType: SignatureType;
  /** Unix milliseconds. */
  timestamp: bigint;
  metadata: Hex;
  builder: Hex;
}

/** `Order(uint256 salt,address maker,...)`: the type string a deposit-wallet signature carries. */
export const orderTypeString = `Order(${orderTypes.Order.map((field) => `${field.type} ${field.name}`).join(',')})`;

/**
 * The order's signature. EOA, proxy and Safe accounts sign the order itself
 * under the exchange's domain. A deposit wallet (type 3) checks signatures
 * through ERC-1271 with ERC-7739 nesting: the key signs a `TypedDataSign`
 * whose contents are the order and which names the wallet, and the wire
 * signature appends what the wallet needs to rebuild that hash: the exchange's
 * domain separator, the order's struct hash, the order type string and its length.
 */
export async function signOrder(wallet: PrivateKeyAccount, order: OrderStruct, domain: OrderDomain): Promise<Hex> {
  if (order.signatureType !== 3) {
    return wallet.signTypedData({ domain, types: orderTypes, primaryType: 'Order', message: order });
  }
  const nested = await wallet.signTypedData({
    domain,
    types: { ...orderTypes, TypedDataSign: typedDataSignFields },
    primaryType: 'TypedDataSign',
    message: { contents: order, name: 'DepositWallet', version: '1', chainId: BigInt(chainId), verifyingContract: order.signer, salt: zeroBytes32 },
  });
  return concat([
    nested,
    hashDomain({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types: { EIP712Domain: domainFields } }),
    hashStruct({ data: order, primaryType: 'Order', types: orderTypes }),
    stringToHex(orderTypeString),
    numberToHex(orderTypeString.length, { size: 2 }),
  ]);
}

const typedDataSignFields = [
  { name: 'contents', type: 'Order' },
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
] as const;

const domainFields = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;
