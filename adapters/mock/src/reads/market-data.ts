import { bookToDepth, resolutionMs } from '@predgate/core';
import type { OHLCVParams, OrderBookParams, TradesParams } from '@predgate/core';
import { defaultPageSize } from '../venue.js';
import type { MockContext } from '../context.js';
import { notSupported, outcomeChoiceNeeded } from '../errors.js';
import { priceOf } from '../simulation/catalog.js';
import { simulateCandles, simulateTrades } from '../simulation/market-data.js';
import { bookOf, outcomeOf } from '../simulation/venue.js';
import type { SimulatedVenue } from '../simulation/venue.js';
import { tickingBook, tickingTrades } from '../streams/ticks.js';

const tradesKept = 200;

export const fetchOrderBook = async ({ venue }: MockContext, id: string, limit?: number, params: OrderBookParams = {}) =>
  bookToDepth(bookOf(venue, resolveOutcome(venue, id, params)), limit ?? params.limit);

export const fetchOrderBooks = async ({ venue }: MockContext, outcomeIds: string[]) =>
  Object.fromEntries(outcomeIds.map((outcomeId) => [outcomeId, bookOf(venue, outcomeId)]));

export async function fetchTrades({ venue, clock }: MockContext, outcomeId: string, params: TradesParams = {}) {
  const { outcome } = outcomeOf(venue, outcomeId);
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  return simulateTrades(outcome, clock.now(), tradesKept)
    .filter((trade) => trade.timestamp >= start && trade.timestamp <= end)
    .slice(0, params.limit ?? defaultPageSize);
}

export async function fetchOHLCV({ venue, clock }: MockContext, outcomeId: string, params: OHLCVParams) {
  const { outcome } = outcomeOf(venue, outcomeId);
  const step = resolutionMs(params.resolution);
  const limit = params.limit ?? defaultPageSize;
  const end = params.end?.getTime() ?? clock.now();
  const start = params.start?.getTime() ?? end - step * (limit - 1);
  return simulateCandles(outcome, step, start, end, limit);
}

// Streams: simulated ticks.
export const watchOrderBook = ({ venue, clock, tickMs }: MockContext, outcomeId: string) =>
  tickingBook(outcomeId, () => bookOf(venue, outcomeId), clock, tickMs);

export function watchTrades({ venue, clock, tickMs }: MockContext, outcomeId: string, address?: string) {
  if (address !== undefined) throw notSupported('The mock venue has no wallets to watch');
  return tickingTrades(outcomeId, () => priceOf(outcomeOf(venue, outcomeId).outcome), clock, tickMs);
}

/** The outcome a book request names: an outcome id, or a market id with `outcome` or `side`. */
function resolveOutcome(venue: SimulatedVenue, id: string, params: OrderBookParams): string {
  const market = venue.catalog.market(id);
  if (!market) {
    outcomeOf(venue, id);
    return id;
  }
  const wanted = params.outcome ?? params.side;
  if (wanted === 'yes' || wanted === 'no') {
    const outcome = market[wanted];
    if (!outcome) throw outcomeChoiceNeeded(`Market ${id} has ${market.outcomes.length} outcomes: name one by id, not "${wanted}"`);
    return outcome.outcomeId;
  }
  if (wanted !== undefined && market.outcomes.some((outcome) => outcome.outcomeId === wanted)) return wanted;
  throw outcomeChoiceNeeded(`${id} is a market id: choose its book with params.outcome (yes, no or an outcome id)`);
}
