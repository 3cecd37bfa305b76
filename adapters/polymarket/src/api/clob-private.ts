import type { HttpMethod, VenueHttpClient } from '@predgate/core';
import type { ClobAuthenticator } from '../auth/api-keys.js';
import type { Query } from './client.js';
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
    return this.send<ClobBalance>('GET', '/balance-allowance', { query: { asset_type: 'COLLATERAL', signature_type: signatureType } });
  }

  /** `GET /data/orders`, every page. */
  openOrders(query: Query): Promise<ClobOpenOrder[]> {
    return this.allPages<ClobOpenOrder>('/data/orders', query);
  }

  /** `GET /data/order/{id}`: an unknown id answers an error or an object without `id`. */
  order(orderId: string): Promise<ClobOpenOrder | null> {
    return this.send<ClobOpenOrder | null>('GET', `/data/order/${encodeURIComponent(orderId)}`);
  }

  /** `GET /data/trades` pages until `limit` fills or the last page; `cursor` resumes a listing. */
  trades(query: Query, limit: number, cursor?: string): Promise<ClobTrade[]> {
    return this.allPages<ClobTrade>('/data/trades', query, limit, cursor);
  }

  /** `POST /order`. Never retried: a repeated placement could trade twice. */
  placeOrder(body: string): Promise<PlacementAnswer> {
    return this.send<PlacementAnswer>('POST', '/order', { body });
  }

  /** `DELETE /order` with the id in the body. */
  cancelOrder(orderId: string): Promise<CancelAnswer> {
    return this.send<CancelAnswer>('DELETE', '/order', { body: JSON.stringify({ orderID: orderId }) });
  }

  private async allPages<T>(path: string, query: Query, limit = Infinity, cursor = firstCursor): Promise<T[]> {
    const items: T[] = [];
    let next = cursor;
    while (next !== lastCursor && items.length < limit) {
      const page = await this.send<ClobPage<T>>('GET', path, { query: { ...query, next_cursor: next } });
      items.push(...(page.data ?? []));
      // A missing or repeated cursor would loop forever: treat it as the end.
      next = page.next_cursor && page.next_cursor !== next ? page.next_cursor : lastCursor;
    }
    return items;
  }

  private async send<T>(method: HttpMethod, path: string, options: { query?: Query; body?: string } = {}): Promise<T> {
    // The signature covers the path without its query, and the body byte for byte.
    const headers = await this.auth.headers(method, path, options.body);
    return this.http.json<T>({ method, url: `${this.host}${path}`, headers, ...options });
  }
}
