import type { Address } from 'viem';

/**
 * Probable's signing constants. Orders are CTF-exchange orders (the
 * Polymarket contract's original `Order` struct, with taker, expiration,
 * nonce and fee) signed under the domain "Probable CTF Exchange", version 1,
 * on BNB Chain; L1 logins sign a `ClobAuth` message under "ClobAuthDomain".
 */

/** BNB Smart Chain, where Probable settles; it is also the `{chainId}` of every private path. */
export const chainId = 56;

/** USDT on BNB Chain and the outcome shares both have 18 decimals. */
export const amountDecimals = 18;

/** The CTF exchange orders are signed for on chain 56 (configurable: `exchangeAddress`). */
export const defaultExchange: Address = '0xF99F5367ce708c66F0860B77B4331301A5597c86';

/** The order's EIP-712 domain. */
export function orderDomain(exchange: Address) {
  return { name: 'Probable CTF Exchange', version: '1', chainId, verifyingContract: exchange } as const;
}

/** L1 authentication (reading or creating the API key triple): a ClobAuth message signed by the wallet key. */
export const clobAuthDomain = { name: 'ClobAuthDomain', version: '1', chainId } as const;

export const zeroAddress: Address = '0x0000000000000000000000000000000000000000';
