import { checkPayload, venueValue } from '@predgate/core';
import type { HttpMethod, QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { activities, balances, book, event, market, order, positionList, positionsPage, series, settlement } from './schemas.js';
import type { RawBook, RawEvent, RawMarket, RawOrder, RawPosition, RawSeries, RawSettlement, RawTrade } from './schemas.js';

export interface PolymarketUsHosts {
  gateway: string;
  api: string;
}

export function polymarketUsApi(http: VenueHttpClient, hosts: PolymarketUsHosts, sign: (method: HttpMethod, path: string) => Record<string, string>) {
  const read = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${hosts.gateway}${path}`, query }), { venue: http.venue, endpoint });
  const signed = async <T>(
    schema: Joi.Schema,
    endpoint: string,
    method: HttpMethod,
    path: string,
    options: { query?: Record<string, QueryValue>; body?: unknown } = {},
  ): Promise<T> =>
    checkPayload<T>(schema, await http.json({ method, url: `${hosts.api}${path}`, query: options.query, body: options.body, headers: sign(method, path) }), {
      venue: http.venue,
      endpoint,
    });
  const segment = encodeURIComponent;

  return {
    events: (query: Record<string, QueryValue>) =>
      read<{ events: RawEvent[] }>(
        Joi.object({ events: venueValue.items(event, { id: 'slug' }).required() }).required(),
        'GET /v1/events',
        '/v1/events',
        query,
      ),
    eventBySlug: (slug: string) =>
      read<{ event: RawEvent }>(Joi.object({ event: event.required() }).required(), 'GET /v1/events/slug/{slug}', `/v1/events/slug/${segment(slug)}`),
    search: (query: Record<string, QueryValue>) =>
      read<{ events: RawEvent[] }>(
        Joi.object({ events: venueValue.items(event, { id: 'slug' }).required() }).required(),
        'GET /v1/search',
        '/v1/search',
        query,
      ),
    markets: (query: Record<string, QueryValue>) =>
      read<{ markets: RawMarket[] }>(
        Joi.object({ markets: venueValue.items(market, { id: 'slug' }).required() }).required(),
        'GET /v1/markets',
        '/v1/markets',
        query,
      ),
    marketBySlug: (slug: string) =>
      read<{ market: RawMarket }>(Joi.object({ market: market.required() }).required(), 'GET /v1/market/slug/{slug}', `/v1/market/slug/${segment(slug)}`),
    series: (query: Record<string, QueryValue>) =>
      read<{ series: RawSeries[] }>(
        Joi.object({ series: venueValue.items(series, { id: 'slug' }).required() }).required(),
        'GET /v1/series',
        '/v1/series',
        query,
      ),
    seriesById: (id: string) =>
      read<{ series: RawSeries }>(Joi.object({ series: series.required() }).required(), 'GET /v1/series/id/{id}', `/v1/series/id/${segment(id)}`),
    /** How a market settled; 404 while it has not (or is unknown). */
    settlement: (slug: string) => read<RawSettlement>(settlement, 'GET /v1/markets/{slug}/settlement', `/v1/markets/${segment(slug)}/settlement`),
    book: (slug: string) => read<{ marketData: RawBook }>(book, 'GET /v1/markets/{slug}/book', `/v1/markets/${segment(slug)}/book`),
    balances: () =>
      signed<{ balances: Array<{ currentBalance: number; buyingPower: number; currency: string }> }>(
        balances,
        'GET /v1/account/balances',
        'GET',
        '/v1/account/balances',
      ),
    positions: async (cursor?: string) => {
      const endpoint = 'GET /v1/portfolio/positions';
      const page = await signed<{ positions: Record<string, unknown>; nextCursor?: string | null; eof?: boolean }>(
        positionsPage,
        endpoint,
        'GET',
        '/v1/portfolio/positions',
        { query: { limit: 100, cursor } },
      );
      const entries = Object.entries(page.positions).map(([slug, raw]) => ({ ...(typeof raw === 'object' ? raw : {}), slug }));
      const { positions } = checkPayload<{ positions: Array<RawPosition & { slug: string }> }>(
        positionList,
        { positions: entries },
        { venue: http.venue, endpoint },
      );
      return { ...page, positions };
    },
    activities: (query: Record<string, QueryValue>) =>
      signed<{ activities: Array<{ type: string; trade?: RawTrade }>; nextCursor?: string | null; eof?: boolean }>(
        activities,
        'GET /v1/portfolio/activities',
        'GET',
        '/v1/portfolio/activities',
        { query },
      ),
    openOrders: (slugs?: string[]) =>
      signed<{ orders: RawOrder[] }>(
        Joi.object({ orders: venueValue.items(order, { id: 'id' }).required() }).required(),
        'GET /v1/orders/open',
        'GET',
        '/v1/orders/open',
        {
          query: { slugs },
        },
      ),
    order: (id: string) =>
      signed<{ order: RawOrder }>(Joi.object({ order: order.required() }).required(), 'GET /v1/order/{id}', 'GET', `/v1/order/${segment(id)}`),
    placeOrder: (body: Record<string, unknown>) =>
      signed<{ id: string }>(Joi.object({ id: Joi.string().required() }).required(), 'POST /v1/orders', 'POST', '/v1/orders', { body }),
    cancelOrder: (id: string, marketSlug: string) =>
      signed<unknown>(Joi.any(), 'POST /v1/order/{id}/cancel', 'POST', `/v1/order/${segment(id)}/cancel`, { body: { marketSlug } }),
  };
}

export type PolymarketUsApi = ReturnType<typeof polymarketUsApi>;
