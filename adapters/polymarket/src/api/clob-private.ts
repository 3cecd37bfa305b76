import { checkPayload } from '@predgate/core';
import type { HttpMethod, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import type { ClobAuthenticator } from '../auth/api-keys.js';
import type { Query } from './client.js';
import { clobBalance, clobCancel, clobOrder, clobPage, clobPlacement } from './schemas.js';
import type { CancelAnswer, ClobBalance, ClobOpenOrder, ClobPage, ClobTrade, PlacementAnswer } from './types.js';

/** The CLOB's cursors: start at `MA==`, stop at `LTE=`. */
const firstCursor = 'MA==';
const lastCursor = 'LTE=';

/** The authenticated CLOB: balance, orders, fills, placement and cancellation, all L2-signed. */
export class ClobPrivateApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
    private readonly auth: ClobAuthenticator,
  ) {}

  /** `GET /balance-allowance`: pUSD as an integer string with six implied decimals. */
  collateralBalance(signatureType: number): Promise<ClobBalance> {
    return this.send<ClobBalance>(clobBalance, 'GET', '/balance-allowance', { query: { asset_type: 'COLLATERAL', signature_type: signatureType } });
  }

  /** `GET /data/orders`, every page. */
  openOrders(query: Query): Promise<ClobOpenOrder[]> {
    return this.allPages<ClobOpenOrder>('/data/orders', query);
  }

  /** `GET /data/order/{id}`: an unknown id answers an error or an object without `id`. */
  order(orderId: string): Promise<ClobOpenOrder | null> {
    return this.send<ClobOpenOrder | null>(clobOrder, 'GET', `/data/order/${encodeURIComponent(orderId)}`, {}, 'GET /data/order/{id}');
  }

  /** `GET /data/trades` pages until `limit` fills or the last page; `cursor` resumes a listing. */
  trades(query: Query, limit: number, cursor?: string): Promise<ClobTrade[]> {
    return this.allPages<ClobTrade>('/data/trades', query, limit, cursor);
  }

  /** `POST /order`. Never retried: a repeated placement could trade twice. */
  placeOrder(body: string): Promise<PlacementAnswer> {
    return this.send<PlacementAnswer>(clobPlacement, 'POST', '/order', { body });
  }

  /** `DELETE /order` with the id in the body. */
  cancelOrder(orderId: string): Promise<CancelAnswer> {
    return this.send<CancelAnswer>(clobCancel, 'DELETE', '/order', { body: JSON.stringify({ orderID: orderId }) });
  }

  private async allPages<T>(path: string, query: Query, limit = Infinity, cursor = firstCursor): Promise<T[]> {
    const items: T[] = [];
    let next = cursor;
    while (next !== lastCursor && items.length < limit) {
      const page = await this.send<ClobPage<T>>(clobPage, 'GET', path, { query: { ...query, next_cursor: next } });
      items.push(...(page.data ?? []));
      // A missing or repeated cursor would loop forever: treat it as the end.
      next = page.next_cursor && page.next_cursor !== next ? page.next_cursor : lastCursor;
    }
    return items;
  }

  /** An L2-signed call whose answer is checked against the shape read from it (`endpoint` names it in errors). */
  private async send<T>(
    schema: Joi.Schema,
    method: HttpMethod,
    path: string,
    options: { query?: Query; body?: string } = {},
    endpoint = `${method} ${path}`,
  ): Promise<T> {
    // The signature covers the path without its query, and the body byte for byte.
    const headers = await this.auth.headers(method, path, options.body);
    const answer = await this.http.json({ method, url: `${this.host}${path}`, headers, ...options });
    return checkPayload<T>(schema, answer, { venue: this.http.venue, endpoint });
  }
}
