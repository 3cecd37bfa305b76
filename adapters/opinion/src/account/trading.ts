import { randomInt } from 'node:crypto';
import { fromBaseUnits, invalidArgument, missingCredentials, notSupported } from '@predgate/core';
import type { BuiltOrder, Clock, CreateOrderParams, Credentials, Order } from '@predgate/core';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import type { OpinionApi } from '../api/client.js';
import { signOrder, signerAddress, safeSignatureType } from '../auth/order-signing.js';
import type { CtfOrder } from '@predgate/core';
import { venue } from '../venue.js';
import type { MarketTokenCache } from './market-tokens.js';
import { decimals, orderAmounts } from './order-amounts.js';
import type { AccountReads } from './reads.js';

const zeroAddress: Address = '0x0000000000000000000000000000000000000000';
const tradingMembers = ['apiKey', 'privateKey', 'funderAddress'];

/**
 * Orders: built and signed here (EIP-712, viem), posted to the CLOB host in
 * the official SDK's wire form, and never retried. Trading needs the API key,
 * the Safe owner's `privateKey` and the Safe's address as `funderAddress`;
 * the Safe must have approved the exchange once (the SDK's `enableTrading`).
 */
export function trading(api: OpinionApi, tokens: MarketTokenCache, reads: AccountReads, credentials: Credentials | undefined, exchange: Address, clock: Clock) {
  function signingKeys(): { privateKey: string; maker: Address } {
    const { apiKey, privateKey, funderAddress } = credentials ?? {};
    if (!apiKey || !privateKey || !funderAddress) throw missingCredentials(venue, tradingMembers);
    if (!/^0x[0-9a-fA-F]{40}$/.test(funderAddress))
      throw invalidArgument('credentials.funderAddress', '"funderAddress" must be the 0x-prefixed address of the Safe');
    // Any letter case is accepted: the address is checksummed here, as viem requires.
    return { privateKey, maker: getAddress(funderAddress.toLowerCase()) };
  }

  async function buildOrder(params: CreateOrderParams): Promise<BuiltOrder> {
    const { privateKey, maker } = signingKeys();
    if (!/^\d{1,15}$/.test(params.marketId))
      throw invalidArgument('params.marketId', `"params.marketId" must be an Opinion market id, got "${params.marketId}"`);
    const market = await tokens.of(params.marketId);
    if (params.outcomeId !== market.yes && params.outcomeId !== market.no) {
      throw invalidArgument('params.outcomeId', `"params.outcomeId" is not a token of market ${params.marketId}`);
    }
    if (market.chainId !== '56')
      throw notSupported('createOrder', `market ${params.marketId} trades on chain ${market.chainId}; Predgate signs for BNB Chain (56) only`);
    const { makerAmount, takerAmount } = orderAmounts(params.side, params.type, params.amount, params.price);
    const message: CtfOrder = {
      salt: BigInt(randomInt(2 ** 47)),
      maker,
      signer: signerAddress(privateKey),
      taker: zeroAddress,
      tokenId: BigInt(params.outcomeId),
      makerAmount,
      takerAmount,
      expiration: 0n,
      nonce: 0n,
      feeRateBps: 0n,
      side: params.side === 'buy' ? 0 : 1,
      signatureType: safeSignatureType,
    };
    const signature = await signOrder(privateKey, exchange, message);
    const signedOrder = { ...Object.fromEntries(Object.entries(message).map(([key, value]) => [key, String(value)])), signature };
    return { exchange: venue, params, signedOrder, raw: wireOrder(params, message, signature, market.quoteToken, clock.now()) };
  }

  async function submitOrder(built: BuiltOrder): Promise<Order> {
    signingKeys();
    const orderId = await api.placeOrder(built.raw);
    const { params } = built;
    const signed = built.signedOrder as Record<string, string>;
    // Shares actually ordered: a buy receives its taker amount, a sell gives its maker amount (amounts are cut to the price's exact ratio).
    const shares =
      params.type === 'market' && params.side === 'buy'
        ? params.amount
        : fromBaseUnits(params.side === 'buy' ? signed.takerAmount : signed.makerAmount, decimals)!;
    return {
      id: orderId,
      marketId: params.marketId,
      outcomeId: params.outcomeId,
      side: params.side,
      type: params.type,
      ...(params.price !== undefined ? { price: params.price } : {}),
      amount: shares,
      status: 'open',
      filled: 0,
      remaining: shares,
      timestamp: clock.now(),
    };
  }

  return {
    buildOrder,
    submitOrder,
    createOrder: async (params: CreateOrderParams) => submitOrder(await buildOrder(params)),
    /** Cancels, then reads the order back so the caller sees Opinion's own state of it. */
    async cancelOrder(orderId: string): Promise<Order> {
      signingKeys();
      await api.cancelOrder(orderId);
      return reads.fetchOrder(orderId);
    },
  };
}

/** The order as the official SDK posts it to `/openapi/order` (snake_case, amounts in base units as text). */
function wireOrder(params: CreateOrderParams, message: CtfOrder, signature: string, quoteToken: string, now: number): Record<string, unknown> {
  return {
    contract_address: '',
    salt: String(message.salt),
    topic_id: Number(params.marketId),
    maker: message.maker,
    signer: message.signer,
    taker: message.taker,
    token_id: String(message.tokenId),
    maker_amount: String(message.makerAmount),
    taker_amount: String(message.takerAmount),
    expiration: '0',
    nonce: '0',
    fee_rate_bps: '0',
    side: String(message.side),
    signature_type: String(message.signatureType),
    signature,
    sign: signature,
    currency_address: quoteToken,
    // A market order carries no limit price.
    price: params.type === 'limit' ? String(params.price) : '0',
    trading_method: params.type === 'limit' ? 2 : 1,
    timestamp: Math.floor(now / 1000),
    safe_rate: '0',
    order_exp_time: '0',
  };
}
