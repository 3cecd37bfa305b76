import Joi from 'joi';
import { id as anyId } from './catalog.js';

/**
 * The bound of every argument, declared once: validation, the OpenAPI
 * document and the fuzz suite read them from the schemas built with these,
 * so no request can make the gateway or a venue call work without limit.
 */
export const argumentBounds = {
  /** Search text (`query`, a filter's `text`); the Router's `q` has the same. */
  text: 200,
  /** Ids, slugs, tickers and addresses. */
  id: 256,
  /** Words: a category, a tag, a series, a resolution. */
  word: 100,
  cursor: 4096,
  /** Items one list call returns. */
  listLimit: 1000,
  /** Candles one fetchOHLCV call returns. */
  candleLimit: 5000,
  offset: 1_000_000,
  tags: 50,
  /** Ids in one call (fetchOrderBooks). */
  ids: 100,
  /** Events or markets handed to one filter call. */
  items: 5000,
} as const;

const id = anyId.max(argumentBounds.id);
const word = Joi.string().max(argumentBounds.word);
const text = Joi.string().allow('').max(argumentBounds.text);
const cursor = Joi.string().max(argumentBounds.cursor);

/**
 * Parameter objects of the core methods. Unknown members are rejected with
 * their name, so a misspelt filter fails loudly instead of being ignored.
 */

export const sortOrders = ['volume', 'liquidity', 'newest'] as const;
export const searchScopes = ['title', 'description', 'both'] as const;
export const statusFilters = ['active', 'inactive', 'closed', 'all'] as const;
export type SortOrder = (typeof sortOrders)[number];
export type SearchScope = (typeof searchScopes)[number];
/** `inactive` and `closed` mean the same; `active` is the default. */
export type StatusFilter = (typeof statusFilters)[number];

export interface Range {
  min?: number;
  max?: number;
}

export interface EventFilterCriteria {
  text?: string;
  /** Where `text` is looked for; default title. */
  searchIn?: Array<'title' | 'description' | 'category' | 'tags'>;
  category?: string;
  /** Any of these. */
  tags?: string[];
  marketCount?: Range;
  /** Sum of the markets' `volume24h`. */
  totalVolume?: Range;
  volume24h?: Range;
  volume?: Range;
}

export type BinaryOutcomeName = 'yes' | 'no' | 'up' | 'down';

export interface OutcomeRange extends Range {
  outcome: BinaryOutcomeName;
}

export interface MarketFilterCriteria {
  text?: string;
  searchIn?: Array<'title' | 'description' | 'category' | 'tags' | 'outcomes'>;
  category?: string;
  tags?: string[];
  volume24h?: Range;
  volume?: Range;
  liquidity?: Range;
  openInterest?: Range;
  resolutionDate?: { before?: Date; after?: Date };
  price?: OutcomeRange;
  priceChange24h?: OutcomeRange;
}

interface ListParams {
  /** Keyword search. */
  query?: string;
  limit?: number;
  offset?: number;
  /** Opaque pagination cursor from an earlier page. */
  cursor?: string;
  /** Default `volume`: highest 24h volume first, on every venue, so lists agree with the catalog's order. */
  sort?: SortOrder;
  searchIn?: SearchScope;
  status?: StatusFilter;
  eventId?: string;
  slug?: string;
  /** Parent series: venue-native id, ticker or slug. */
  series?: string;
  category?: string;
  tags?: string[];
  sourceExchange?: string;
}

export interface EventFetchParams extends ListParams {
  filter?: EventFilterCriteria;
}

export interface MarketFetchParams extends ListParams {
  marketId?: string;
  /** Finds the market holding this outcome. */
  outcomeId?: string;
  filter?: MarketFilterCriteria;
  /** Venue paging extras pmxt clients may send (Limitless). */
  page?: number;
  similarityThreshold?: number;
}

export interface SeriesFetchParams {
  id?: string;
  slug?: string;
  query?: string;
  recurrence?: string;
  category?: string;
  limit?: number;
  offset?: number;
}

export interface OrderBookParams {
  /** `yes`, `no` or an outcome id: the first argument is then a market id. */
  outcome?: string;
  /** Book side on venues with one book per market. */
  side?: 'yes' | 'no';
  /** Unix ms: archived book at or before this time (with `until`: start of a range). */
  since?: number;
  /** Unix ms: end of a range of archived books. */
  until?: number;
  /** Books in a range (default 100, at most 1000), or levels per side of a live book. */
  limit?: number;
}

export interface TradesParams {
  start?: Date;
  end?: Date;
  limit?: number;
  /** Accepted from older pmxt clients and ignored. */
  resolution?: string;
}

export interface OHLCVParams {
  /** `1m`, `5m`, `15m`, `1h`, `6h`, `1d`, or any `<n><s|m|h|d>` a venue supports. */
  resolution: string;
  start?: Date;
  end?: Date;
  limit?: number;
}

export interface OrderHistoryParams {
  marketId?: string;
  since?: Date;
  until?: Date;
  limit?: number;
  cursor?: string;
}

export interface MyTradesParams extends OrderHistoryParams {
  outcomeId?: string;
}

export interface Page<T> {
  data: T[];
  total?: number;
  /** Absent on the last page. */
  nextCursor?: string;
}

export interface PageParams<Criteria> {
  limit?: number;
  cursor?: string;
  /** Default `active`; the catalog sweeps with `all`. */
  status?: StatusFilter;
  /** Parent series: venue-native id, ticker or slug. */
  series?: string;
  filter?: Criteria;
}

const range = Joi.object<Range, true>({ min: Joi.number(), max: Joi.number() });
const outcomeRange = Joi.object<OutcomeRange, true>({
  outcome: Joi.string().valid('yes', 'no', 'up', 'down').required(),
  min: Joi.number(),
  max: Joi.number(),
});
const tagList = Joi.array().items(word).max(argumentBounds.tags).single();
const limit = Joi.number().integer().min(1).max(argumentBounds.listLimit);
const offset = Joi.number().integer().min(0).max(argumentBounds.offset);

export const eventFilterCriteriaSchema = Joi.object<EventFilterCriteria, true>({
  text,
  searchIn: Joi.array()
    .items(Joi.string().valid('title', 'description', 'category', 'tags'))
    .single(),
  category: word,
  tags: tagList,
  marketCount: range,
  totalVolume: range,
  volume24h: range,
  volume: range,
});

export const marketFilterCriteriaSchema = Joi.object<MarketFilterCriteria, true>({
  text,
  searchIn: Joi.array()
    .items(Joi.string().valid('title', 'description', 'category', 'tags', 'outcomes'))
    .single(),
  category: word,
  tags: tagList,
  volume24h: range,
  volume: range,
  liquidity: range,
  openInterest: range,
  resolutionDate: Joi.object({ before: Joi.date(), after: Joi.date() }),
  price: outcomeRange,
  priceChange24h: outcomeRange,
});

/**
 * A list parameter the catalog can answer exactly as the venue would; the
 * catalog-served pass-through and the Router read which ones from the
 * schemas, so a parameter added here without this mark goes live.
 */
const catalogKey = <T extends Joi.Schema>(schema: T): T => schema.meta({ catalog: true }) as T;

const listParamKeys = {
  query: catalogKey(text),
  limit: catalogKey(limit),
  offset: catalogKey(offset),
  cursor,
  sort: catalogKey(Joi.string().valid(...sortOrders)),
  searchIn: Joi.string().valid(...searchScopes),
  status: catalogKey(Joi.string().valid(...statusFilters)),
  eventId: catalogKey(id),
  slug: catalogKey(id),
  series: word,
  category: catalogKey(word),
  tags: catalogKey(tagList),
  sourceExchange: catalogKey(word),
};

export const eventFetchParamsSchema = Joi.object<EventFetchParams, true>({
  ...listParamKeys,
  filter: eventFilterCriteriaSchema,
}).rename('exchange', 'sourceExchange');

export const marketFetchParamsSchema = Joi.object<MarketFetchParams, true>({
  ...listParamKeys,
  marketId: catalogKey(id),
  outcomeId: catalogKey(id),
  filter: marketFilterCriteriaSchema,
  page: Joi.number().integer().min(1).max(argumentBounds.offset),
  similarityThreshold: Joi.number(),
}).rename('exchange', 'sourceExchange');

export const seriesFetchParamsSchema = Joi.object<SeriesFetchParams, true>({
  id,
  slug: id,
  query: text,
  recurrence: word,
  category: word,
  limit,
  offset,
});

export const orderBookParamsSchema = Joi.object<OrderBookParams, true>({
  outcome: id,
  side: Joi.string().valid('yes', 'no'),
  since: Joi.number().integer().min(0),
  until: Joi.number().integer().min(Joi.ref('since')),
  limit: Joi.number().integer().min(1).max(argumentBounds.listLimit),
}).with('until', 'since');

export const tradesParamsSchema = Joi.object<TradesParams, true>({
  start: Joi.date(),
  end: Joi.date(),
  limit,
  resolution: word,
});

export const ohlcvParamsSchema = Joi.object<OHLCVParams, true>({
  resolution: Joi.string()
    .max(12)
    .pattern(/^\d+[smhd]$/, 'duration such as 1m, 1h or 1d')
    .required(),
  start: Joi.date(),
  end: Joi.date(),
  limit: Joi.number().integer().min(1).max(argumentBounds.candleLimit),
});

const orderHistoryKeys = {
  marketId: id,
  since: Joi.date(),
  until: Joi.date(),
  limit,
  cursor,
};

export const orderHistoryParamsSchema = Joi.object<OrderHistoryParams, true>(orderHistoryKeys);

export const myTradesParamsSchema = Joi.object<MyTradesParams, true>({ ...orderHistoryKeys, outcomeId: id });

const pageKeys = {
  limit,
  cursor,
  status: Joi.string().valid(...statusFilters),
  series: word,
};

export const eventPageParamsSchema = Joi.object<PageParams<EventFilterCriteria>, true>({ ...pageKeys, filter: eventFilterCriteriaSchema });

export const marketPageParamsSchema = Joi.object<PageParams<MarketFilterCriteria>, true>({ ...pageKeys, filter: marketFilterCriteriaSchema });

/** The list parameters the catalog can answer, read from the fetch schemas' marks. */
export const catalogParamNames: ReadonlySet<string> = new Set(
  [eventFetchParamsSchema, marketFetchParamsSchema].flatMap((schema) =>
    Object.entries((schema.describe() as { keys: Record<string, { metas?: Array<{ catalog?: boolean }> }> }).keys)
      .filter(([, key]) => key.metas?.some((meta) => meta.catalog))
      .map(([name]) => name),
  ),
);

export function pageSchema(item: Joi.Schema): Joi.ObjectSchema {
  return Joi.object({
    data: Joi.array().items(item).required(),
    total: Joi.number().integer().min(0),
    nextCursor: Joi.string(),
  });
}
