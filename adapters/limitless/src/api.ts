import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';

/**
 * Limitless' REST API. Markets are keyed by slug; numbers are not
 * type-stable (strings or numbers); raw amounts carry 6 decimals beside their
 * `*Formatted` siblings; book sizes are raw share units.
 */

export interface RawMarket {
  id?: number | string | null;
  slug: string;
  title?: string | null;
  description?: string | null;
  tradeType?: string | null;
  marketType?: string | null;
  status?: string | null;
  expired?: boolean | null;
  winningOutcomeIndex?: number | null;
  expirationTimestamp?: number | string | null;
  categories?: string[] | null;
  tags?: string[] | null;
  logo?: string | null;
  volumeFormatted?: string | number | null;
  liquidityFormatted?: string | number | null;
  prices?: Array<number | string> | null;
  tokens?: { yes: string; no: string } | null;
  address?: string | null;
  negRiskRequestId?: string | null;
  venue?: { exchange?: string | null; adapter?: string | null } | null;
  markets?: RawMarket[] | null;
}

export interface RawBook {
  bids: Array<{ price: number | string; size: number | string }>;
  asks: Array<{ price: number | string; size: number | string }>;
  tokenId?: string | null;
  lastTradePrice?: number | string | null;
}

export interface RawUserOrder {
  id: string;
  createdAt: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  price?: string | number | null;
  quantity: string | number;
  status: string;
  orderType?: string | null;
}

export interface RawPositionSide {
  fillPrice: string | number;
  realisedPnl: string | number;
  unrealizedPnl: string | number;
}

export interface RawPositionMarket {
  slug: string;
  title?: string | null;
  winningOutcomeIndex?: number | null;
}

export interface RawClobPosition {
  market: RawPositionMarket;
  positions: { yes: RawPositionSide; no: RawPositionSide };
  tokensBalance: { yes: string | number; no: string | number };
  latestTrade: { latestYesPrice: string | number; latestNoPrice: string | number };
}

export interface RawAmmPosition {
  market: RawPositionMarket;
  outcomeIndex: 0 | 1;
  outcomeTokenAmount: string | number;
  averageFillPrice: string | number;
  realizedPnl: string | number;
  unrealizedPnl: string | number;
  latestTrade?: { outcomeTokenPrice?: string | number | null } | null;
}

export interface RawPositions {
  clob: RawClobPosition[];
  amm: RawAmmPosition[];
}

export interface RawHistoryEntry {
  blockTimestamp: number | string;
  strategy: string;
  market?: { slug: string } | null;
  outcomeIndex?: number | null;
  outcomeTokenAmount?: string | number | null;
  outcomeTokenPrice?: string | number | null;
  collateralAmount?: string | number | null;
  transactionHash?: string | null;
}

/** The history entries that are trades; the others are splits, merges, conversions and claims. */
export const tradeStrategies = ['Buy', 'Sell', 'Limit Buy', 'Limit Sell', 'Market Buy', 'Market Sell'];

const numeric = venueValue.numeric();
const optional = Joi.string().allow('', null);
const market = Joi.object({
  id: venueValue.id().allow(null),
  slug: Joi.string().min(1).max(300).required(),
  title: optional,
  description: optional,
  tradeType: optional,
  marketType: optional,
  status: optional,
  expired: Joi.boolean().allow(null),
  winningOutcomeIndex: Joi.number().integer().valid(0, 1).allow(null),
  expirationTimestamp: venueValue.time().allow(null, ''),
  categories: Joi.array().items(Joi.string()).allow(null),
  tags: Joi.array().items(Joi.string()).allow(null),
  logo: optional,
  volumeFormatted: numeric.allow(null),
  liquidityFormatted: numeric.allow(null),
  prices: Joi.array().items(numeric).max(2).allow(null),
  tokens: Joi.object({ yes: venueValue.id().required(), no: venueValue.id().required() }).allow(null),
  address: optional,
  negRiskRequestId: optional,
  venue: Joi.object({ exchange: optional, adapter: optional }).allow(null),
  markets: Joi.array().items(Joi.link('#market')).allow(null),
}).id('market');
/** Listings are checked market by market: one unreadable market is left out as drift (named by its slug), never the page. */
const markets = venueValue.items(market, { id: 'slug' });
const level = Joi.object({ price: numeric.required(), size: numeric.required() });
const book = Joi.object({
  bids: Joi.array().items(level).required(),
  asks: Joi.array().items(level).required(),
  tokenId: optional,
  lastTradePrice: numeric.allow(null),
}).required();
const history = Joi.object({
  prices: Joi.array()
    .items(Joi.object({ price: numeric.required(), timestamp: venueValue.time().required() }))
    .required(),
}).required();
const userOrder = Joi.object({
  id: Joi.string().required(),
  createdAt: venueValue.time().required(),
  tokenId: venueValue.id().required(),
  side: Joi.string().valid('BUY', 'SELL').required(),
  price: numeric.allow(null),
  quantity: numeric.required(),
  status: Joi.string().required(),
  orderType: optional,
});

const positionMarket = Joi.object({
  slug: Joi.string().min(1).max(300).required(),
  title: Joi.string().allow('', null),
  winningOutcomeIndex: Joi.number().integer().valid(0, 1).allow(null),
}).required();
const positionSide = Joi.object({ fillPrice: numeric.required(), realisedPnl: numeric.required(), unrealizedPnl: numeric.required() }).required();
const positions = Joi.object({
  clob: Joi.array()
    .items(
      Joi.object({
        market: positionMarket,
        positions: Joi.object({ yes: positionSide, no: positionSide }).required(),
        tokensBalance: Joi.object({ yes: numeric.required(), no: numeric.required() }).required(),
        latestTrade: Joi.object({ latestYesPrice: numeric.required(), latestNoPrice: numeric.required() }).required(),
      }),
    )
    .required(),
  amm: Joi.array()
    .items(
      Joi.object({
        market: positionMarket,
        outcomeIndex: Joi.number().integer().valid(0, 1).required(),
        outcomeTokenAmount: numeric.required(),
        averageFillPrice: numeric.required(),
        realizedPnl: numeric.required(),
        unrealizedPnl: numeric.required(),
        latestTrade: Joi.object({ outcomeTokenPrice: numeric.allow(null) }).allow(null),
      }),
    )
    .required(),
}).required();
/** Trade entries must carry what a fill is read from; other entries are only counted past. */
const whenTrade = (schema: Joi.Schema) =>
  schema.allow(null).when('strategy', { is: Joi.valid(...tradeStrategies).required(), then: Joi.required().invalid(null) });
const historyEntry = Joi.object({
  blockTimestamp: venueValue.time().required(),
  strategy: Joi.string().max(64).required(),
  market: whenTrade(Joi.object({ slug: Joi.string().min(1).max(300).required() })),
  outcomeIndex: whenTrade(Joi.number().integer().valid(0, 1)),
  outcomeTokenAmount: whenTrade(numeric),
  outcomeTokenPrice: whenTrade(numeric),
  collateralAmount: numeric.allow(null),
  transactionHash: whenTrade(Joi.string().min(1).max(200)),
});

export interface Signed {
  /** Headers for the exact request: method, path with query, body text. */
  (method: string, pathWithQuery: string, body: string): Record<string, string>;
}

export function limitlessApi(http: VenueHttpClient, baseUrl: string) {
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>, headers?: Record<string, string>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query, headers }), { venue: http.venue, endpoint });
  /** An authenticated read: the headers sign the exact path with its query. */
  const signedGet = async <T>(schema: Joi.Schema, endpoint: string, pathWithQuery: string, sign: Signed): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${pathWithQuery}`, headers: sign('GET', pathWithQuery, '') }), { venue: http.venue, endpoint });
  const segment = encodeURIComponent;

  return {
    /** Active markets only (singles, groups with children, AMM), 25 a page at most. */
    active: (page: number, limit: number) =>
      get<{ data: RawMarket[]; totalMarketsCount?: number }>(
        Joi.object({ data: markets.required(), totalMarketsCount: Joi.number().integer().min(0) }).required(),
        'GET /markets/active',
        '/markets/active',
        { page, limit, sortBy: 'high_value' },
      ),
    search: (query: string, limit: number, page: number) =>
      get<{ markets: RawMarket[] }>(Joi.object({ markets: markets.required() }).required(), 'GET /markets/search', '/markets/search', {
        query,
        limit,
        page,
        similarityThreshold: 0.5,
      }),
    market: (slug: string) => get<RawMarket>(market.required(), 'GET /markets/{slug}', `/markets/${segment(slug)}`),
    /** The YES token's book, whichever outcome is wanted. */
    orderbook: (slug: string) => get<RawBook>(book, 'GET /markets/{slug}/orderbook', `/markets/${segment(slug)}/orderbook`),
    historicalPrice: (slug: string, interval: string) =>
      get<{ prices: Array<{ price: number | string; timestamp: number | string }> }>(
        history,
        'GET /markets/{slug}/historical-price',
        `/markets/${segment(slug)}/historical-price`,
        {
          interval,
        },
      ),
    /** The caller's orders in one market: `statuses` repeats the key (`LIVE`, `MATCHED`); `limit` is the venue's cap. */
    userOrders: async (slug: string, statuses: string[], sign: Signed, limit?: number) => {
      const query = [...statuses.map((status) => `statuses=${status}`), ...(limit === undefined ? [] : [`limit=${limit}`])].join('&');
      const answer = await signedGet<RawUserOrder[] | { orders: RawUserOrder[] }>(
        Joi.alternatives()
          .conditional(Joi.array(), { then: Joi.array().items(userOrder), otherwise: Joi.object({ orders: Joi.array().items(userOrder).required() }) })
          .required(),
        'GET /markets/{slug}/user-orders',
        `/markets/${segment(slug)}/user-orders?${query}`,
        sign,
      );
      return Array.isArray(answer) ? answer : answer.orders;
    },
    /** The caller's CLOB and AMM positions (`group` is not read: its shape is undocumented). */
    positions: (sign: Signed) => signedGet<RawPositions>(positions, 'GET /portfolio/positions', '/portfolio/positions', sign),
    /** Any address's positions, without credentials. */
    publicPositions: (address: string) => get<RawPositions>(positions, 'GET /portfolio/{address}/positions', `/portfolio/${segment(address)}/positions`),
    /** The caller's activity log (trades, splits, merges, conversions), newest first; `cursor=` is sent empty for the first page. */
    history: (cursor: string | undefined, limit: number, sign: Signed) =>
      signedGet<{ data: RawHistoryEntry[]; nextCursor?: string | null }>(
        Joi.object({ data: Joi.array().items(historyEntry).required(), nextCursor: Joi.string().max(2_000).allow(null, '') }).required(),
        'GET /portfolio/history',
        `/portfolio/history?cursor=${encodeURIComponent(cursor ?? '')}&limit=${limit}`,
        sign,
      ),
    profile: (address: string) =>
      get<{ id: number; rank?: { feeRateBps?: number | null } | null }>(
        Joi.object({
          id: Joi.number().integer().required(),
          rank: Joi.object({ feeRateBps: Joi.number().integer().min(0).max(10_000).allow(null) }).allow(null),
        }).required(),
        'GET /profiles/public/{address}',
        `/profiles/public/${segment(address)}`,
      ),
    /** The body is sent as the exact text that was signed; never retried. */
    placeOrder: async (body: string, sign: Signed) =>
      checkPayload<{
        order: { id: string; price?: number | string | null; createdAt?: string | null };
        makerMatches?: Array<{ matchedSize: string | number }> | null;
      }>(
        Joi.object({
          order: Joi.object({ id: Joi.string().required(), price: numeric.allow(null), createdAt: optional }).required(),
          makerMatches: Joi.array()
            .items(Joi.object({ matchedSize: numeric.required() }))
            .allow(null),
        }).required(),
        await http.json({ method: 'POST', url: `${baseUrl}/orders`, body, headers: { ...sign('POST', '/orders', body), 'content-type': 'application/json' } }),
        { venue: http.venue, endpoint: 'POST /orders' },
      ),
    /** Cancels one order: `{ message }`. */
    cancelOrder: async (orderId: string, sign: Signed) => {
      const path = `/orders/${segment(orderId)}`;
      return checkPayload<{ message: string }>(
        Joi.object({ message: Joi.string().allow('').required() }).required(),
        await http.json({ method: 'DELETE', url: `${baseUrl}${path}`, headers: sign('DELETE', path, '') }),
        { venue: http.venue, endpoint: 'DELETE /orders/{orderId}' },
      );
    },
  };
}

export type LimitlessApi = ReturnType<typeof limitlessApi>;
