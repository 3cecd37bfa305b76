import { bookToDepth, invalidArgument } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import type { SmarketsApi } from '../api/client.js';
import { optionalToken } from '../auth/tokens.js';
import type { SmarketsContext } from '../context.js';
import { isVenueId, partsOfOutcomeId } from '../ids.js';
import { normalizeBook } from '../normalize/order-book.js';

/** One contract's book (bids and offers); delayed prices without a session. */
export async function fetchOrderBook(ctx: SmarketsContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const parts =
    partsOfOutcomeId(params.outcome ?? '') ??
    partsOfOutcomeId(id) ??
    (await contractNamed(ctx.api, id, params.outcome ?? params.side, await optionalToken(ctx)));
  const quotes = await ctx.api.quotes(parts.marketId, await optionalToken(ctx));
  const levels = quotes[parts.contractId] ?? { bids: [], offers: [] };
  return bookToDepth(normalizeBook(levels, ctx.clock.now()), limit ?? params.limit);
}

/** A market id with `yes`/`no`: the contract of that type (YES/NO markets only). */
async function contractNamed(api: SmarketsApi, marketId: string, wanted: string | undefined, auth: string | undefined) {
  if (!isVenueId(marketId) || (wanted !== 'yes' && wanted !== 'no')) {
    throw invalidArgument(
      'params.outcome',
      `${marketId.slice(0, 60)} is not an outcome id (<market>:<contract>): give one, or a market id with params.outcome yes or no`,
    );
  }
  const { contracts } = await api.contracts([marketId], auth);
  const contract = contracts.find((candidate) => candidate.contract_type?.name?.toLowerCase() === wanted || candidate.name.toLowerCase() === wanted);
  if (!contract) throw invalidArgument('params.outcome', `market ${marketId} has no "${wanted}" contract: name the outcome by id`);
  return { marketId, contractId: contract.id };
}
