import { PredgateError, findMarket, isPredgateError, marketListPredicate, unlessMissing } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import { segment } from '../api/client.js';
import type { RawEvent, RawMarket } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { parseOutcomeId, ticker } from '../ids.js';
import { normalizeEvent } from '../normalize/event.js';
import { normalizeMarket } from '../normalize/market.js';
import { sweepEvents } from './event-sweep.js';
import { eventOrNothing } from './events.js';
import { sortItems, wantsTags } from './list-params.js';
import { checked } from '../api/schemas.js';

/**
 * fetchMarkets: a direct lookup by `marketId`, `slug` or `outcomeId`; the
 * markets of one event (`eventId`); else the markets of the status's events,
 * flattened, filtered and cut to `offset`/`limit`. Markets are read through
 * their events because a Kalshi market object carries no title or category.
 */
export async function fetchMarkets(ctx: KalshiContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const key = marketKeyOf(params);
  if (key !== undefined) {
    const found = await unlessMissing(marketByTicker(ctx, key));
    return found ? [found] : [];
  }
  const offset = params.offset ?? 0;
  const limit = params.limit ?? ctx.config.pageSize;
  const matches = marketListPredicate(params);
  const keep = (markets: Market[]) => (matches === undefined ? markets : markets.filter(matches));
  if (params.eventId !== undefined) {
    const event = await eventOrNothing(ctx, params.eventId);
    return sortItems(keep(event?.markets ?? []), params.sort).slice(offset, offset + limit);
  }
  const series = wantsTags(params) ? await ctx.seriesDirectory.byTicker(ctx) : undefined;
  const { items } = await sweepEvents(ctx, {
    status: params.status,
    series: params.series,
    cursor: params.cursor,
    wanted: params.sort ? Number.POSITIVE_INFINITY : offset + limit,
    select: (raw) => keep(normalizeEvent(raw, ctx.origin, raw.series_ticker ? series?.get(raw.series_ticker) : undefined).markets),
    onePerEvent: false,
  });
  return sortItems(items, params.sort).slice(offset, offset + limit);
}

/**
 * fetchMarket: by market ticker (`marketId` or `slug`) or outcome id, with
 * `GET /markets/{ticker}`; else the first market the fetchMarkets parameters
 * find. An event ticker is not a market ticker: it fails with
 * MARKET_NOT_FOUND rather than standing for one of the event's markets.
 */
export async function fetchMarket(ctx: KalshiContext, params: MarketFetchParams = {}): Promise<Market> {
  const key = marketKeyOf(params);
  if (key !== undefined) return marketByTicker(ctx, key);
  // The first match is all that is wanted: one is enough to stop paging.
  return findMarket((query) => fetchMarkets(ctx, { ...query, limit: query.limit ?? 1 }), params, ctx.origin.exchange);
}

/**
 * One market, with its event's title and category. The event is a second
 * call; when it fails the market keeps its own (deprecated) title.
 */
async function marketByTicker(ctx: KalshiContext, marketTicker: string): Promise<Market> {
  let raw: RawMarket;
  try {
    raw = checked<{ market: RawMarket }>('GET /markets/{ticker}', ctx.origin.exchange, await ctx.api.get<unknown>(`/markets/${segment(marketTicker)}`)).market;
  } catch (error) {
    if (isPredgateError(error) && error.code === 'MARKET_NOT_FOUND') {
      throw new PredgateError(
        'MARKET_NOT_FOUND',
        `Market not found: ${marketTicker} (a market ticker names one contract, EVENT-STRIKE; for an event ticker use fetchEvent)`,
        { exchange: ctx.origin.exchange, detail: error.detail },
      );
    }
    throw error;
  }
  const event = await parentEvent(ctx, raw.event_ticker);
  if (event?.series_ticker) ctx.seriesTickers.set(raw.ticker, event.series_ticker);
  return normalizeMarket(raw, { title: event?.title, category: event?.category }, ctx.origin);
}

/** The series ticker of a market's event, which the candlestick endpoint needs. Cached: tickers never move. */
export async function seriesTickerOf(ctx: KalshiContext, marketTicker: string): Promise<string> {
  const known = ctx.seriesTickers.get(marketTicker);
  if (known !== undefined) return known;
  const { market } = checked<{ market: RawMarket }>(
    'GET /markets/{ticker}',
    ctx.origin.exchange,
    await ctx.api.get<unknown>(`/markets/${segment(marketTicker)}`),
  );
  const event = await rawEvent(ctx, market.event_ticker ?? marketTicker);
  if (!event.series_ticker) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${ctx.origin.exchange} sent event ${event.event_ticker} without its series ticker`, {
      exchange: ctx.origin.exchange,
    });
  }
  ctx.seriesTickers.set(marketTicker, event.series_ticker);
  return event.series_ticker;
}

/** The ticker a market lookup names: a market ticker as given, or an outcome id's market. */
function marketKeyOf(params: MarketFetchParams): string | undefined {
  if (params.marketId !== undefined) return ticker(params.marketId);
  if (params.slug !== undefined) return ticker(params.slug);
  if (params.outcomeId !== undefined) return parseOutcomeId(params.outcomeId).ticker;
  return undefined;
}

async function parentEvent(ctx: KalshiContext, eventTicker: string | undefined): Promise<RawEvent | undefined> {
  if (eventTicker === undefined) return undefined;
  try {
    return await rawEvent(ctx, eventTicker);
  } catch (error) {
    ctx.logger.debug({ eventTicker, code: isPredgateError(error) ? error.code : undefined }, 'event of a market not joined');
    return undefined;
  }
}

async function rawEvent(ctx: KalshiContext, eventTicker: string): Promise<RawEvent> {
  return checked<{ event: RawEvent }>('GET /events/{ticker}', ctx.origin.exchange, await ctx.api.get<unknown>(`/events/${segment(eventTicker)}`)).event;
}
