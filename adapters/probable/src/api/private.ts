import { checkPayload, venueValue } from '@predgate/core';
import type { HttpMethod, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import type { ProbableAuthenticator } from '../auth/api-keys.js';
import { chainId } from '../auth/contracts.js';
import { orderStatusWords } from '../normalize/order-status.js';

/**
 * Probable's private order-book API: orders, fills, placement and
 * cancellation, all L2-signed. Orders and fills are Binance-style
 * (`orderId`, `origQty`, `executedQty`, `status: NEW`).
 */

export interface RawOrder {
  orderId: number | string;
  symbol?: string | null;
  side: string;
  type?: string | null;
  timeInForce?: string | null;
  price: string | number;
  avgPrice?: string | number | null;
  origQty: string | number;
  executedQty: string | number;
  status: string;
  time?: number | null;
  updateTime?: number | null;
  tokenId?: string | null;
  ctfTokenId?: string | null;
}

export interface RawTrade {
  id: number | string;
  orderId?: number | string | null;
  symbol?: string | null;
  price: string | number;
  qty: string | number;
  commission?: string | number | null;
  time: number | string;
  buyer: boolean;
  maker?: boolean | null;
}

export type Query = Record<string, string | number | undefined>;

/** Prices and quantities are floats in the model: past 2^53 the nearest double. */
const numeric = venueValue.amount();
const optionalText = Joi.string().allow('', null);
const tokenText = Joi.string().pattern(/^\d+$/).allow('', null);

export const rawOrder = Joi.object({
  orderId: venueValue.id().required(),
  symbol: optionalText,
  side: Joi.string().valid('BUY', 'SELL', 'buy', 'sell').required(),
  type: optionalText,
  timeInForce: optionalText,
  price: numeric.required(),
  avgPrice: numeric.allow(null, ''),
  origQty: numeric.required(),
  executedQty: numeric.required(),
  // A status the adapter cannot map leaves the order out of a list as drift, rather than refusing the list.
  status: Joi.string()
    .valid(...orderStatusWords)
    .insensitive()
    .required(),
  time: Joi.number().allow(null),
  updateTime: Joi.number().allow(null),
  tokenId: tokenText,
  ctfTokenId: tokenText,
}).or('time', 'updateTime');

/** A placement refusal: `{code, msg}`, even with HTTP 200. */
const refusal = Joi.object({ code: Joi.alternatives(Joi.number(), Joi.string()).required(), msg: Joi.string().allow('') });

const rawTrade = Joi.object({
  id: venueValue.id().required(),
  orderId: venueValue.id().allow(null),
  symbol: optionalText,
  price: numeric.required(),
  qty: numeric.required(),
  commission: numeric.allow(null, ''),
  time: venueValue.time().required(),
  buyer: Joi.boolean().required(),
  maker: Joi.boolean().allow(null),
});

/** Orders read one by one: an unreadable order is left out as drift (named by its id), never the list. */
const orderList = venueValue.items(rawOrder, { id: 'orderId' });

export class ProbablePrivateApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
    private readonly auth: ProbableAuthenticator,
  ) {}

  /** `GET /orders/56/open`: a bare array, or `{orders}` as the SDK also reads. */
  async openOrders(query: Query): Promise<RawOrder[]> {
    const body = await this.send<RawOrder[] | { orders: RawOrder[] }>(
      Joi.alternatives(orderList, Joi.object({ orders: orderList.required() })).required(),
      'GET',
      `/orders/${chainId}/open`,
      'GET /orders/{chainId}/open',
      query,
    );
    return Array.isArray(body) ? body : body.orders;
  }

  /** `GET /orders/56/{orderId}?tokenId=`: the token is required. */
  order(orderId: string, tokenId: string): Promise<RawOrder> {
    return this.send<RawOrder>(rawOrder.required(), 'GET', `/orders/${chainId}/${encodeURIComponent(orderId)}`, 'GET /orders/{chainId}/{orderId}', {
      tokenId,
    });
  }

  /** `POST /order/56`. Never retried: a repeated placement could trade twice. */
  placeOrder(body: string): Promise<RawOrder | { code: number | string; msg?: string }> {
    return this.send(Joi.alternatives(refusal, rawOrder).required(), 'POST', `/order/${chainId}`, 'POST /order/{chainId}', {}, body);
  }

  /** `DELETE /order/56/{orderId}?tokenId=`: answers the order as it now stands. */
  cancelOrder(orderId: string, tokenId: string): Promise<RawOrder | { code: number | string; msg?: string }> {
    return this.send(
      Joi.alternatives(refusal, rawOrder).required(),
      'DELETE',
      `/order/${chainId}/${encodeURIComponent(orderId)}`,
      'DELETE /order/{chainId}/{orderId}',
      { tokenId },
    );
  }

  /** `GET /trade/56?tokenId=`: the account's fills of one token, newest first, by cursor. */
  trades(query: Query): Promise<{ trades: RawTrade[]; next_cursor?: string | null }> {
    return this.send(
      Joi.object({ trades: venueValue.items(rawTrade, { id: 'id' }).required(), next_cursor: Joi.string().allow('', null) }).required(),
      'GET',
      `/trade/${chainId}`,
      'GET /trade/{chainId}',
      query,
    );
  }

  /**
   * An L2-signed call. The URL is built here, so the path and query signed are
   * exactly those sent; the answer is checked against the shape read from it.
   */
  private async send<T>(schema: Joi.Schema, method: HttpMethod, path: string, endpoint: string, query: Query = {}, body?: string): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, String(value));
    const url = `${this.host}${path}${search.size > 0 ? `?${search.toString()}` : ''}`;
    const headers = await this.auth.headers(method, url, body);
    const answer = await this.http.json({
      method,
      url,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
      idempotent: method === 'GET',
      // Order and trade ids are Binance-style integers: one past 2^53 keeps its digits.
      exactIntegers: true,
    });
    return checkPayload<T>(schema, answer, { venue: this.http.venue, endpoint });
  }
}
