import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import type { GeminiSigner } from '../auth/signer.js';
import { book, candles, event, eventsPage, order, ordersPage, positions, trades } from './schemas.js';
import type { RawCandle, RawEvent, RawLevel, RawOrder, RawPosition, RawTrade } from './schemas.js';

export function geminiApi(http: VenueHttpClient, baseUrl: string, signer: () => GeminiSigner) {
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>, exactIntegers = false): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query, exactIntegers }), { venue: http.venue, endpoint });
  // A signed POST is never retried, reads included: a resent nonce is refused as stale.
  const post = async <T>(schema: Joi.Schema, path: string, fields: Record<string, unknown>): Promise<T> => {
    const headers = signer().headers(path, fields);
    // Order ids are integers that may pass 2^53: their digits are kept (exactIntegers).
    const body = await http.json({ method: 'POST', url: `${baseUrl}${path}`, body: '', headers, exactIntegers: true });
    return checkPayload<T>(schema, body, { venue: http.venue, endpoint: `POST ${path}` });
  };
  const segment = encodeURIComponent;

  return {
    events: (query: Record<string, QueryValue>) =>
      get<{ data: RawEvent[]; pagination?: { total?: number } }>(eventsPage, 'GET /v1/prediction-markets/events', '/v1/prediction-markets/events', query),
    event: (ticker: string) =>
      get<RawEvent>(event.required(), 'GET /v1/prediction-markets/events/{ticker}', `/v1/prediction-markets/events/${segment(ticker)}`),
    book: (symbol: string) => get<{ bids: RawLevel[]; asks: RawLevel[] }>(book, 'GET /v1/book/{symbol}', `/v1/book/${segment(symbol)}`),
    trades: (symbol: string, limit: number) =>
      get<RawTrade[]>(trades, 'GET /v1/trades/{symbol}', `/v1/trades/${segment(symbol)}`, { limit_trades: limit }, true),
    candles: (symbol: string, timeFrame: string) =>
      get<RawCandle[]>(candles, 'GET /v2/candles/{symbol}/{time_frame}', `/v2/candles/${segment(symbol)}/${timeFrame}`),
    activeOrders: (fields: Record<string, unknown>) =>
      post<{ orders: RawOrder[]; pagination?: { count?: number } }>(ordersPage, '/v1/prediction-markets/orders/active', fields),
    orderHistory: (fields: Record<string, unknown>) =>
      post<{ orders: RawOrder[]; pagination?: { count?: number } }>(ordersPage, '/v1/prediction-markets/orders/history', fields),
    positions: () => post<{ positions: RawPosition[] }>(positions, '/v1/prediction-markets/positions', {}),
    placeOrder: (fields: Record<string, unknown>) => post<RawOrder>(order.required(), '/v1/prediction-markets/order', fields),
    cancelOrder: (orderId: number) => post<RawOrder>(order.required(), '/v1/prediction-markets/order/cancel', { orderId }),
  };
}

export type GeminiApi = ReturnType<typeof geminiApi>;
