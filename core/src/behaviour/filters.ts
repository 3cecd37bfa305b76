import type { Event, EventFetchParams, EventFilterCriteria, Market, MarketFetchParams, MarketFilterCriteria, OutcomeRange, Range } from '../model/index.js';

export type Criteria<T, C> = string | C | ((item: T) => boolean);

type ListCriteria = EventFilterCriteria & MarketFilterCriteria;

/** The words criteria compare without regard to case. */
interface Words {
  text?: string;
  category?: string;
  tags?: string[];
}

/**
 * Events that match a criteria object (every member given must match), a
 * text query (case-insensitive, in the title) or a predicate.
 */
export function filterEvents(events: readonly Event[], criteria: Criteria<Event, EventFilterCriteria>): Event[] {
  return events.filter(toPredicate(criteria, preparedEventMatch));
}

/** Markets that match a criteria object, a text query or a predicate, as filterEvents. */
export function filterMarkets(markets: readonly Market[], criteria: Criteria<Market, MarketFilterCriteria>): Market[] {
  return markets.filter(toPredicate(criteria, preparedMarketMatch));
}

function toPredicate<T, C extends Words>(criteria: Criteria<T, C>, matches: (item: T, criteria: C) => boolean): (item: T) => boolean {
  if (typeof criteria === 'function') return criteria as (item: T) => boolean;
  const prepared = prepare(typeof criteria === 'string' ? ({ text: criteria } as C) : criteria);
  return (item) => matches(item, prepared);
}

/**
 * The criteria with their words lower-cased once, before any item is looked
 * at: a long query against a long list costs one lower-casing, not one per item.
 */
function prepare<C extends Words>(criteria: C): C {
  return {
    ...criteria,
    ...(criteria.text !== undefined ? { text: criteria.text.toLowerCase() } : {}),
    ...(criteria.category !== undefined ? { category: criteria.category.toLowerCase() } : {}),
    ...(criteria.tags !== undefined ? { tags: criteria.tags.map((tag) => tag.toLowerCase()) } : {}),
  };
}

/**
 * What a list call's `query` (with `searchIn`), `category`, `tags` and
 * `filter` ask of an event, for venues that cannot filter on their side;
 * undefined when nothing filters.
 */
export function eventListPredicate(params: EventFetchParams): ((event: Event) => boolean) | undefined {
  const criteria = listCriteria(params).map(prepare);
  return criteria.length === 0 ? undefined : (event) => criteria.every((each) => preparedEventMatch(event, each));
}

/** The same for a list of markets. */
export function marketListPredicate(params: MarketFetchParams): ((market: Market) => boolean) | undefined {
  const criteria = listCriteria(params).map(prepare);
  return criteria.length === 0 ? undefined : (market) => criteria.every((each) => preparedMarketMatch(market, each));
}

function listCriteria(params: EventFetchParams | MarketFetchParams): ListCriteria[] {
  const criteria: ListCriteria[] = [];
  if (params.query) criteria.push({ text: params.query, searchIn: searchScopes(params.searchIn) });
  if (params.category !== undefined) criteria.push({ category: params.category });
  if (params.tags?.length) criteria.push({ tags: params.tags });
  if (params.filter && Object.keys(params.filter).length > 0) criteria.push(params.filter as ListCriteria);
  return criteria;
}

function searchScopes(searchIn: EventFetchParams['searchIn']): Array<'title' | 'description'> {
  if (searchIn === 'description') return ['description'];
  if (searchIn === 'both') return ['title', 'description'];
  return ['title'];
}

export function eventMatches(event: Event, criteria: EventFilterCriteria): boolean {
  return preparedEventMatch(event, prepare(criteria));
}

export function marketMatches(market: Market, criteria: MarketFilterCriteria): boolean {
  return preparedMarketMatch(market, prepare(criteria));
}

function preparedEventMatch(event: Event, criteria: EventFilterCriteria): boolean {
  return (
    textMatches(criteria.text, criteria.searchIn ?? ['title'], {
      title: [event.title],
      description: [event.description],
      category: [event.category],
      tags: event.tags,
    }) &&
    categoryMatches(event.category, criteria.category) &&
    preparedTagsMatch(event.tags, criteria.tags) &&
    inRange(event.markets.length, criteria.marketCount) &&
    inRange(
      event.markets.reduce((sum, market) => sum + market.volume24h, 0),
      criteria.totalVolume,
    ) &&
    inRange(event.volume24h, criteria.volume24h) &&
    inRange(event.volume ?? 0, criteria.volume)
  );
}

function preparedMarketMatch(market: Market, criteria: MarketFilterCriteria): boolean {
  return (
    textMatches(criteria.text, criteria.searchIn ?? ['title'], {
      title: [market.title],
      description: [market.description],
      category: [market.category],
      tags: market.tags,
      outcomes: market.outcomes.map((outcome) => outcome.label),
    }) &&
    categoryMatches(market.category, criteria.category) &&
    preparedTagsMatch(market.tags, criteria.tags) &&
    inRange(market.volume24h, criteria.volume24h) &&
    inRange(market.volume ?? 0, criteria.volume) &&
    inRange(market.liquidity, criteria.liquidity) &&
    inRange(market.openInterest ?? 0, criteria.openInterest) &&
    resolutionMatches(market.resolutionDate, criteria.resolutionDate) &&
    outcomeInRange(market, criteria.price, 'price') &&
    outcomeInRange(market, criteria.priceChange24h, 'priceChange24h')
  );
}

function textMatches(text: string | undefined, scopes: readonly string[], fields: Record<string, ReadonlyArray<string | undefined> | undefined>): boolean {
  if (!text) return true;
  return scopes.some((scope) => (fields[scope] ?? []).some((value) => value?.toLowerCase().includes(text)));
}

/** Categories compare without regard to case: `politics` finds `Politics` (`wanted` is lower-cased). */
function categoryMatches(category: string | undefined, wanted: string | undefined): boolean {
  return wanted === undefined || category?.toLowerCase() === wanted;
}

/** Any of the wanted tags, without regard to case. */
export function tagsMatch(tags: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return preparedTagsMatch(
    tags,
    wanted?.map((tag) => tag.toLowerCase()),
  );
}

function preparedTagsMatch(tags: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0) return true;
  return (tags ?? []).some((tag) => wanted.includes(tag.toLowerCase()));
}

function inRange(value: number, range: Range | undefined): boolean {
  if (!range) return true;
  return (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
}

/** Strict bounds; a market without a resolution date is not excluded by them. */
function resolutionMatches(date: string | undefined, bounds: MarketFilterCriteria['resolutionDate']): boolean {
  if (!bounds || !date) return true;
  const time = Date.parse(date);
  return (bounds.before === undefined || time < new Date(bounds.before).getTime()) && (bounds.after === undefined || time > new Date(bounds.after).getTime());
}

/** A bound on a convenience outcome excludes markets that lack that outcome or the value. */
function outcomeInRange(market: Market, range: OutcomeRange | undefined, field: 'price' | 'priceChange24h'): boolean {
  if (!range) return true;
  const value = market[range.outcome]?.[field];
  return value !== undefined && inRange(value, range);
}
