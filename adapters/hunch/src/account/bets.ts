import { randomUUID } from 'node:crypto';
import { checkPayload, invalidArgument, isPredgateError, percentToFraction, toEpochMs } from '@predgate/core';
import type { CreateOrderParams, Order } from '@predgate/core';
import { paymentChallenge } from '../api/schemas.js';
import type { PaymentRequirement, TradeBody } from '../api/schemas.js';
import { accountOf } from '../auth/wallet.js';
import { paymentHeader, requirementFor } from '../auth/x402.js';
import { venueId } from '../venue.js';
import type { HunchContext } from '../context.js';
import { invalidOrder } from '../errors.js';
import { splitOutcomeId } from '../ids.js';

/** Bets above this need a quote first, whose id and minimum shares go into the bet. */
const simpleTierMaxUsd = 10;

/** A bet: a market buy into the pool, paid over x402 when the venue answers the unpaid request with its challenge. */
export async function createOrder(ctx: HunchContext, params: CreateOrderParams): Promise<Order> {
  if (params.side !== 'buy') throw invalidOrder('Hunch bets are buys only: a position is held until the market resolves');
  if (params.type !== 'market') throw invalidOrder('Hunch bets are market orders into the pool: there are no limit orders');
  const parts = splitOutcomeId(params.outcomeId);
  if (!parts || parts.marketId !== params.marketId) {
    throw invalidArgument('params.outcomeId', `${venueId} outcome ids are <market>:<side> of the market given, such as ${params.marketId.slice(0, 80)}:yes`);
  }
  const atomic = Math.round(params.amount * 1e6);
  if (atomic < 1_000_000 || atomic !== params.amount * 1e6) {
    throw invalidOrder('a Hunch bet is an amount of USD (the order amount), at least 1 and with at most 6 decimals');
  }
  const account = accountOf(ctx.credentials);
  const bet: TradeBody = {
    marketId: parts.marketId,
    side: parts.side,
    sizeUsd: params.amount,
    idemKey: randomUUID(),
    walletAddress: account.address,
    simulate: false,
  };
  if (params.amount > simpleTierMaxUsd) {
    const quote = await ctx.api.quote(parts.marketId, parts.side, params.amount, account.address);
    Object.assign(bet, { quoteId: quote.quoteId, minSharesOut: quote.suggestedMinSharesOut });
  }
  const body = JSON.stringify(bet);
  let answer;
  try {
    answer = await ctx.api.trade(body);
  } catch (error) {
    const challenge = isPredgateError(error) ? error.detail?.challenge : undefined;
    if (challenge === undefined) throw error;
    const { accepts } = checkPayload<{ accepts: PaymentRequirement[] }>(paymentChallenge, challenge, { venue: venueId, endpoint: 'POST /trade (402)' });
    const payment = await paymentHeader(account, requirementFor(accepts, BigInt(atomic)), ctx.clock.now());
    answer = await ctx.api.trade(body, payment);
  }
  const { receipt } = answer;
  const price = receipt.position?.avgPriceCents;
  return {
    id: receipt.tradeId,
    marketId: parts.marketId,
    outcomeId: params.outcomeId,
    side: 'buy',
    type: 'market',
    amount: params.amount,
    ...(price === null || price === undefined ? {} : { price: percentToFraction(price)! }),
    status: 'filled',
    filled: params.amount,
    remaining: 0,
    timestamp: toEpochMs(receipt.recordedAt) ?? ctx.clock.now(),
  } satisfies Order;
}
