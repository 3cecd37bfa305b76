import type { Address } from 'viem';

/** Polygon PoS, where Polymarket settles. */
export const chainId = 137;

/** Every on-chain amount (pUSD and outcome shares) has six decimals. */
export const amountDecimals = 6;

export const zeroBytes32 = `0x${'00'.repeat(32)}` as const;

/** The CLOB V2 exchanges (since the 2026-04-28 cutover); neg-risk markets settle on their own exchange. */
const exchanges = {
  standard: '0xE111180000d2663C0091e4f400237545B87B996B',
  negRisk: '0xe2222d279d744050d28e00520010520000310F59',
  /** "ExchangeV3": markets Gamma tags `version: "v2"` (Protocol V2 positions). */
  protocolV2: '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa',
} as const satisfies Record<string, Address>;

const exchangeName = 'Polymarket CTF Exchange';

export interface OrderDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

/** The EIP-712 domain an order is signed under. */
export function orderDomain(market: { negRisk: boolean; protocolV2: boolean }): OrderDomain {
  if (market.protocolV2) return { name: exchangeName, version: '3', chainId, verifyingContract: exchanges.protocolV2 };
  return { name: exchangeName, version: '2', chainId, verifyingContract: market.negRisk ? exchanges.negRisk : exchanges.standard };
}

/** The signed CLOB V2 order: `expiration`, order type and post-only travel beside it, unsigned. */
export const orderTypes = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;

/** L1 authentication (creating and deriving API keys): a ClobAuth message signed by the wallet key. */
export const clobAuthDomain = { name: 'ClobAuthDomain', version: '1', chainId } as const;
