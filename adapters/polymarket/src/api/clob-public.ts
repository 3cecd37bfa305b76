import { checkPayload } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import { clobBook, clobBooks, priceHistory } from './schemas.js';
import type { ClobBook, PriceHistory } from './types.js';

/** The CLOB's public market data: books and price history, per outcome token. */
export class ClobPublicApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
  ) {}

  /** `GET /book`: 404 "No orderbook exists for the requested token id" for settled or unknown tokens. */
  book(tokenId: string): Promise<ClobBook> {
    return this.checked<ClobBook>(clobBook, 'GET /book', this.http.json({ url: `${this.host}/book`, query: { token_id: tokenId } }));
  }

  /** `POST /books`: a read, so safe to retry; unknown tokens are silently left out of the answer. */
  books(tokenIds: readonly string[]): Promise<ClobBook[]> {
    return this.checked<ClobBook[]>(
      clobBooks,
      'POST /books',
      this.http.json({ method: 'POST', url: `${this.host}/books`, body: tokenIds.map((tokenId) => ({ token_id: tokenId })), idempotent: true }),
    );
  }

  /** `GET /prices-history`: `{t, p}` samples between `startTs` and `endTs` (Unix seconds), one per `fidelity` minutes. */
  pricesHistory(query: { market: string; startTs: number; endTs: number; fidelity: number }): Promise<PriceHistory> {
    return this.checked<PriceHistory>(priceHistory, 'GET /prices-history', this.http.json({ url: `${this.host}/prices-history`, query: { ...query } }));
  }

  private async checked<T>(schema: Joi.Schema, endpoint: string, answer: Promise<unknown>): Promise<T> {
    return checkPayload<T>(schema, await answer, { venue: this.http.venue, endpoint });
  }
}
