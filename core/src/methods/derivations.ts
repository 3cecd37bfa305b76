import { getExecutionPrice, getExecutionPriceDetailed } from '../behaviour/execution-price.js';
import { filterEvents, filterMarkets } from '../behaviour/filters.js';
import type { Criteria } from '../behaviour/filters.js';
import { findEvent, findMarket } from '../behaviour/lookup.js';
import { listWhole, loadedList, snapshotPage } from '../behaviour/snapshots.js';
import type { Event, EventFetchParams, EventFilterCriteria, Market, MarketFetchParams, MarketFilterCriteria, OrderBook, PageParams } from '../model/index.js';
import { combineFeeds } from '../streaming/feed.js';
import type { Feed } from '../streaming/feed.js';
import type { DerivationSource, MethodImplementation } from './declaration.js';
import { ownMethod } from './own-method.js';

/**
 * How core provides methods from an adapter's others: the `derive` of the
 * declarations in the core method list. Each takes the adapter and answers
 * the implementation, or undefined when the adapter lacks what it needs.
 */

type Book = Pick<OrderBook, 'bids' | 'asks'>;
type Derivation = (adapter: DerivationSource) => MethodImplementation | undefined;
type Lister<T> = (params: object) => Promise<T[]>;

/** fetchEvent from fetchEvents: by `eventId` or `slug`, else the first match. */
export const eventLookup: Derivation = (adapter) => {
  const list = ownMethod(adapter, 'fetchEvents') as Lister<Event> | undefined;
  return list && ((params) => findEvent(list, params as EventFetchParams, adapter.id));
};

/** fetchMarket from fetchMarkets: by `marketId`, `slug` or `outcomeId`, else the first match. */
export const marketLookup: Derivation = (adapter) => {
  const list = ownMethod(adapter, 'fetchMarkets') as Lister<Market> | undefined;
  return list && ((params) => findMarket(list, params as MarketFetchParams, adapter.id));
};

/**
 * A paginated method from a list method: a snapshot of the items the page's
 * `status`, `series` and `filter` select, paged by cursor.
 */
function snapshotPages<T, C>(listName: string, keyOf: (item: T) => string, filter: (items: T[], criteria: C) => T[]): Derivation {
  return (adapter) => {
    const list = ownMethod(adapter, listName) as Lister<T> | undefined;
    return (
      list &&
      ((params = {}) => {
        const { filter: criteria, status, series, ...page } = params as PageParams<C>;
        return snapshotPage(adapter, adapter.id, page, async () => {
          const items = await listWhole((window) => list({ ...window, status, series }), keyOf);
          return criteria ? filter(items, criteria) : items;
        });
      })
    );
  };
}

/** fetchEventsPaginated from fetchEvents. */
export const eventPages = snapshotPages<Event, EventFilterCriteria>('fetchEvents', (event) => event.id, filterEvents);

/** fetchMarketsPaginated from fetchMarkets. */
export const marketPages = snapshotPages<Market, MarketFilterCriteria>('fetchMarkets', (market) => market.marketId, filterMarkets);

/** loadMarkets from fetchMarkets: the venue's active markets keyed by id, listed again on `reload` or once stale. */
export const marketsById: Derivation = (adapter) => {
  const list = ownMethod(adapter, 'fetchMarkets') as Lister<Market> | undefined;
  return (
    list &&
    (async (reload) => {
      const markets = await loadedList(adapter, 'markets', reload === true, () => listWhole(list, (market) => market.marketId));
      return Object.fromEntries(markets.map((market) => [market.marketId, market]));
    })
  );
};

/** watchOrderBooks from watchOrderBook: one feed per outcome. */
export const eachBook: Derivation = (adapter) => {
  const one = ownMethod(adapter, 'watchOrderBook');
  return one && ((ids) => combineFeeds(Object.fromEntries((ids as string[]).map((id) => [id, one(id) as Feed<OrderBook>]))));
};

/** Pure computations, needing no venue. */
export const computed = {
  filterEvents: () => (events: unknown, criteria: unknown) => filterEvents(events as Event[], criteria as Criteria<Event, EventFilterCriteria>),
  filterMarkets: () => (markets: unknown, criteria: unknown) => filterMarkets(markets as Market[], criteria as Criteria<Market, MarketFilterCriteria>),
  getExecutionPrice: () => (book: unknown, side: unknown, amount: unknown) => getExecutionPrice(book as Book, side as 'buy' | 'sell', amount as number),
  getExecutionPriceDetailed: () => (book: unknown, side: unknown, amount: unknown) =>
    getExecutionPriceDetailed(book as Book, side as 'buy' | 'sell', amount as number),
} satisfies Record<string, Derivation>;
