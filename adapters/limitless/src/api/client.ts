import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { book, history, historyEntry, market, markets, numeric, optional, positions, userOrder } from './schemas.js';
import type { RawBook, RawHistoryEntry, RawMarket, RawPositions, RawPriceSeries, RawUserOrder } from './schemas.js';

export interface Signed {
  /** Headers for the exact request: method, path with query, body text. */
  (method: string, pathWithQuery: string, body: string): Record<string, string>;
}

export function limitlessApi(http: VenueHttpClient, baseUrl: string) {
  /*
   * Answers are parsed with exactIntegers: a token id or a raw 6-decimal
   * amount sent as a bare number past 2^53 keeps its digits (token ids are
   * 70-78 digits; base units are read exactly by fromBaseUnits).
   */
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query, exactIntegers: true }), { venue: http.venue, endpoint });
  /** An authenticated read: the headers sign the exact path with its query. */
  const signedGet = async <T>(schema: Joi.Schema, endpoint: string, pathWithQuery: string, sign: Signed): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${pathWithQuery}`, headers: sign('GET', pathWithQuery, ''), exactIntegers: true }), {
      venue: http.venue,
      endpoint,
    });
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
      get<RawPriceSeries | RawPriceSeries[]>(history, 'GET /markets/{slug}/historical-price', `/markets/${segment(slug)}/historical-price`, {
        interval,
      }),
    /** The caller's orders in one market: `statuses` repeats the key (`LIVE`, `MATCHED`); `limit` is the venue's cap. */
    userOrders: async (slug: string, statuses: string[], sign: Signed, limit?: number) => {
      const query = [...statuses.map((status) => `statuses=${status}`), ...(limit === undefined ? [] : [`limit=${limit}`])].join('&');
      const answer = await signedGet<RawUserOrder[] | { orders: RawUserOrder[] }>(
        // One unreadable order is left out as drift (named by its id), never the list.
        Joi.alternatives()
          .conditional(Joi.array(), {
            then: venueValue.items(userOrder, { id: 'id' }),
            otherwise: Joi.object({ orders: venueValue.items(userOrder, { id: 'id' }).required() }),
          })
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
        // One unreadable entry is left out as drift (named by its transaction hash), never the page.
        Joi.object({
          data: venueValue.items(historyEntry, { id: 'transactionHash' }).required(),
          nextCursor: Joi.string().max(2_000).allow(null, ''),
        }).required(),
        'GET /portfolio/history',
        `/portfolio/history?cursor=${encodeURIComponent(cursor ?? '')}&limit=${limit}`,
        sign,
      ),
    profile: (address: string) =>
      get<{ id: number | string; rank?: { feeRateBps?: number | null } | null }>(
        Joi.object({
          id: Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d{1,15}$/)).required(),
          rank: Joi.object({ feeRateBps: Joi.number().integer().min(0).max(10_000).allow(null) }).allow(null),
        }).required(),
        'GET /profiles/public/{address}',
        `/profiles/public/${segment(address)}`,
      ),
    /** The body is sent as the exact text that was signed; never retried. */
    placeOrder: async (body: string, sign: Signed) =>
      checkPayload<{
        order: { id: string | number; price?: number | string | null; createdAt?: string | null };
        makerMatches?: Array<{ matchedSize: string | number }> | null;
      }>(
        Joi.object({
          order: Joi.object({ id: venueValue.id().required(), price: numeric.allow(null), createdAt: optional }).required(),
          makerMatches: Joi.array()
            .items(Joi.object({ matchedSize: numeric.required() }))
            .allow(null),
        }).required(),
        await http.json({
          method: 'POST',
          url: `${baseUrl}/orders`,
          body,
          headers: { ...sign('POST', '/orders', body), 'content-type': 'application/json' },
          exactIntegers: true,
        }),
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
