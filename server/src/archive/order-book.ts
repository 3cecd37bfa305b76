import { PredgateError } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import { archivedVenue } from '@predgate/archive';
import type { PolymarketArchive } from '@predgate/archive';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { CatalogStore } from '@predgate/catalog';

const defaultRangeLimit = 100;

/**
 * `fetchOrderBook` with `since` (one book) or `since`+`until` (up to `limit`
 * books) for an archived venue, as the gateway routes such calls here.
 */
export async function answerArchivedOrderBook(context: {
  venue: string;
  method: string;
  args: readonly unknown[];
  archive: Pick<PolymarketArchive, 'bookAt' | 'booksBetween'>;
  store: CatalogStore;
}): Promise<OrderBook | OrderBook[]> {
  if (context.method !== 'fetchOrderBook') throw new PredgateError('NOT_SUPPORTED', `The archive answers fetchOrderBook only, not ${context.method}`);
  const [id, limitArgument, rawParams] = context.args as [string, number | undefined, OrderBookParams | undefined];
  const params = rawParams ?? {};
  if (params.since === undefined) throw new PredgateError('BAD_REQUEST', '`until` needs `since`', { detail: { until: params.until } });
  const since = params.since;
  const { assetId, isNegRisk } = await resolveToken(context.store, id, params.outcome);
  const extra = isNegRisk === undefined ? {} : { isNegRisk };
  if (params.until === undefined) {
    const snapshot = await context.archive.bookAt(assetId, since);
    if (!snapshot) {
      throw new PredgateError(
        'NOT_FOUND',
        `The archive holds no ${context.venue} order book for token ${assetId} at or before ${new Date(since).toISOString()}`,
        {
          exchange: context.venue,
          detail: { assetId, since },
        },
      );
    }
    return toOrderBook(snapshot, extra);
  }
  const limit = Math.min(params.limit ?? limitArgument ?? defaultRangeLimit, 1_000);
  const snapshots = await context.archive.booksBetween(assetId, { since, until: params.until, limit });
  return snapshots.map((snapshot) => toOrderBook(snapshot, extra));
}

/**
 * The outcome token a call names: the id itself, or with `outcome` the
 * market's yes/no token (or the outcome id given there), looked up in the catalog.
 */
async function resolveToken(store: CatalogStore, id: string, outcome: string | undefined): Promise<{ assetId: string; isNegRisk?: boolean }> {
  if (outcome !== undefined && outcome !== 'yes' && outcome !== 'no') return { assetId: outcome, ...(await negRiskOf(store, { outcomeId: outcome })) };
  if (outcome === undefined) return { assetId: id, ...(await negRiskOf(store, { outcomeId: id })) };
  const page = await store.markets({ venue: archivedVenue, marketId: id, status: 'all', limit: 1, offset: 0 });
  const market = page.items[0]?.market;
  const token = market?.[outcome]?.outcomeId;
  if (!token) {
    throw new PredgateError('NOT_FOUND', `Market ${id} has no "${outcome}" outcome in the catalog: pass the outcome token id instead`, {
      detail: { marketId: id, outcome },
    });
  }
  return { assetId: token, ...negRiskFrom(market?.sourceMetadata) };
}

async function negRiskOf(store: CatalogStore, query: { outcomeId: string }): Promise<{ isNegRisk?: boolean }> {
  const page = await store.markets({ venue: archivedVenue, outcomeId: query.outcomeId, status: 'all', limit: 1, offset: 0 });
  return negRiskFrom(page.items[0]?.market.sourceMetadata);
}

/** Neg-risk is a market fact the socket never sends; the catalog's copy of the market may carry it. */
function negRiskFrom(metadata: Record<string, unknown> | undefined): { isNegRisk?: boolean } {
  const value = metadata?.negRisk ?? metadata?.isNegRisk;
  return typeof value === 'boolean' ? { isNegRisk: value } : {};
}
