import { PredgateError } from '../errors.js';
import { collectingDrift } from '../kit/drift.js';
import type { Event, EventFetchParams, Market, MarketFetchParams } from '../model/index.js';

type Lister<P, T> = (params: P) => Promise<T[]> | T[];

/**
 * fetchEvent in terms of fetchEvents: the event with the given `eventId` or
 * `slug`, else the first result of the search. Lookups by id or slug find
 * closed events too unless the caller narrows `status`.
 */
export async function findEvent(fetchEvents: Lister<EventFetchParams, Event>, params: EventFetchParams = {}, venue?: string): Promise<Event> {
  const byKey = params.eventId !== undefined || params.slug !== undefined;
  const { value: events, reports } = await collectingDrift(async () => fetchEvents({ ...params, status: params.status ?? (byKey ? 'all' : undefined) }));
  const found = byKey
    ? events.find((event) => (params.eventId === undefined || event.id === params.eventId) && (params.slug === undefined || event.slug === params.slug))
    : events[0];
  if (!found) {
    const key = params.eventId ?? params.slug ?? params.query ?? '';
    const leftOut = leftOutItem(reports, [params.eventId, params.slug]);
    if (leftOut) throw leftOut;
    throw new PredgateError('EVENT_NOT_FOUND', `Event not found: ${key}`.trim(), {
      exchange: venue ?? null,
      detail: lookupDetail(params, ['eventId', 'slug', 'query']),
    });
  }
  return found;
}

/** fetchMarket in terms of fetchMarkets, by `marketId`, `slug` or `outcomeId`, as findEvent. */
export async function findMarket(fetchMarkets: Lister<MarketFetchParams, Market>, params: MarketFetchParams = {}, venue?: string): Promise<Market> {
  const byKey = params.marketId !== undefined || params.slug !== undefined || params.outcomeId !== undefined;
  const { value: markets, reports } = await collectingDrift(async () => fetchMarkets({ ...params, status: params.status ?? (byKey ? 'all' : undefined) }));
  const found = byKey
    ? markets.find(
        (market) =>
          (params.marketId === undefined || market.marketId === params.marketId) &&
          (params.slug === undefined || market.slug === params.slug) &&
          (params.outcomeId === undefined || market.outcomes.some((outcome) => outcome.outcomeId === params.outcomeId)),
      )
    : markets[0];
  if (!found) {
    const key = params.marketId ?? params.slug ?? params.outcomeId ?? params.query ?? '';
    const leftOut = leftOutItem(reports, [params.marketId, params.slug, params.outcomeId]);
    if (leftOut) throw leftOut;
    throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${key}`.trim(), {
      exchange: venue ?? null,
      detail: lookupDetail(params, ['marketId', 'slug', 'outcomeId', 'query']),
    });
  }
  return found;
}

function lookupDetail(params: object, keys: readonly string[]): Record<string, unknown> {
  const record = params as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
}

/** The item asked for, when the venue did send it but it was left out as unreadable: its drift error names the field. */
function leftOutItem(reports: PredgateError[], keys: ReadonlyArray<string | undefined>): PredgateError | undefined {
  const wanted = keys.filter((key): key is string => key !== undefined);
  return reports.find((report) => wanted.includes(String(report.detail?.item)));
}
