/**
 * The EIP-712 shapes of Polymarket's CTF exchange as the venues built on it
 * keep them. Limitless, Opinion and Probable sign the exchange's original
 * `Order` struct; Polymarket and Probable log in with a `ClobAuth` message.
 * Each venue signs under its own domain (name, version, chain, contract).
 */

type Address = `0x${string}`;

export const ctfOrderTypes = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

/** One `Order` as signed. */
export interface CtfOrder {
  salt: bigint;
  maker: Address;
  signer: Address;
  taker: Address;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  /** 0 buy, 1 sell. */
  side: number;
  signatureType: number;
}

export const clobAuthTypes = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
} as const;

export const clobAuthMessage = 'This message attests that I control the given wallet';
