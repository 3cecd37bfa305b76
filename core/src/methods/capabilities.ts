/**
 * What each adapter can do, worked out in one place: the methods it
 * implements, those core derives for it, and the capability map both make.
 */

import { getExecutionPrice, getExecutionPriceDetailed } from '../behaviour/execution-price.js';
import { filterEvents, filterMarkets } from '../behaviour/filters.js';
import type { Criteria } from '../behaviour/filters.js';
import { findEvent, findMarket } from '../behaviour/lookup.js';
import type { Event, EventFetchParams, EventFilterCriteria, Market, MarketFetchParams, MarketFilterCriteria, OrderBook } from '../model/index.js';
import type { Capability } from '../model/index.js';
import { combineFeeds } from '../streaming/feed.js';
import type { Feed } from '../streaming/feed.js';
import type { VenueAdapterBase } from './adapter.js';
import { coreMethods } from './method-list.js';
import type { MethodName } from './method-list.js';
import type { MethodList } from './registry.js';

export type MethodImplementation = (...args: unknown[]) => unknown;

type Book = Pick<OrderBook, 'bids' | 'asks'>;

/**
 * Methods core can provide for any adapter: pure computations that need no
 * venue, and single lookups built on the adapter's own lists. An adapter that
 * implements one itself is used as it is; otherwise these answer, and the
 * capability map calls the method `emulated`.
 */
const derivations: Record<string, (adapter: VenueAdapterBase) => MethodImplementation | undefined> = {
  fetchEvent: (adapter) => {
    const list = ownMethod(adapter, 'fetchEvents');
    return list && ((params) => findEvent((query) => list(query) as Promise<Event[]>, params as EventFetchParams, adapter.id));
  },
  fetchMarket: (adapter) => {
    const list = ownMethod(adapter, 'fetchMarkets');
    return list && ((params) => findMarket((query) => list(query) as Promise<Market[]>, params as MarketFetchParams, adapter.id));
  },
  filterEvents: () => (events, criteria) => filterEvents(events as Event[], criteria as Criteria<Event, EventFilterCriteria>),
  filterMarkets: () => (markets, criteria) => filterMarkets(markets as Market[], criteria as Criteria<Market, MarketFilterCriteria>),
  getExecutionPrice: () => (book, side, amount) => getExecutionPrice(book as Book, side as 'buy' | 'sell', amount as number),
  // Several books watched as one, one feed per outcome.
  watchOrderBooks: (adapter) => {
    const one = ownMethod(adapter, 'watchOrderBook');
    return one && ((ids) => combineFeeds(Object.fromEntries((ids as string[]).map((id) => [id, one(id) as Feed<OrderBook>]))));
  },
  getExecutionPriceDetailed: () => (book, side, amount) => getExecutionPriceDetailed(book as Book, side as 'buy' | 'sell', amount as number),
};

/** The adapter's own implementation of a method, bound to it. */
export function ownMethod(adapter: VenueAdapterBase, name: string): MethodImplementation | undefined {
  const candidate = (adapter as unknown as Record<string, unknown>)[name];
  return typeof candidate === 'function' ? (candidate as MethodImplementation).bind(adapter) : undefined;
}

/** Core's implementation of a method for this adapter, where core has one and the adapter has what it needs. */
export function derivedMethod(adapter: VenueAdapterBase, name: string): MethodImplementation | undefined {
  return Object.hasOwn(derivations, name) ? derivations[name]!(adapter) : undefined;
}

/**
 * The capability map: every method of the list, as the adapter provides it.
 * `true` for its own implementations, `'emulated'` for those it builds from
 * other calls (its `emulated` list) or that core provides for it, `false`
 * for the rest.
 */
export function capabilitiesOf(adapter: VenueAdapterBase, list: MethodList = coreMethods): Record<MethodName | (string & {}), Capability> {
  const has: Record<string, Capability> = {};
  // A method that ends a stream's watches is there exactly when the stream is.
  const stopped = new Map(Object.entries(list).flatMap(([name, declaration]) => (declaration.stream?.stop ? [[declaration.stream.stop, name] as const] : [])));
  for (const [name, declaration] of Object.entries(list)) {
    if (stopped.has(name)) has[name] = ownMethod(adapter, stopped.get(name)!) || derivedMethod(adapter, stopped.get(name)!) ? true : false;
    else if (declaration.answeredBy === 'gateway') has[name] = true;
    else if (ownMethod(adapter, name)) has[name] = (adapter.emulated as readonly string[] | undefined)?.includes(name) ? 'emulated' : true;
    else has[name] = derivedMethod(adapter, name) ? 'emulated' : false;
  }
  return has;
}

/** The methods of the list the adapter implements itself, leaving out what the gateway or core answers for it. */
export function ownMethodNames(adapter: VenueAdapterBase, list: MethodList = coreMethods): string[] {
  return Object.keys(list).filter((name) => list[name]!.answeredBy === 'adapter' && ownMethod(adapter, name));
}

/** The implementation a call of `name` runs: the adapter's own, else core's, else none. */
export function adapterMethod(adapter: VenueAdapterBase, name: string): MethodImplementation | undefined {
  return ownMethod(adapter, name) ?? derivedMethod(adapter, name);
}
