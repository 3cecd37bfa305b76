import type { VenueHttpClient } from '@predgate/core';
import type { Query } from './client.js';
import type { DataPosition, DataTrade } from './types.js';

/** The Data API: the public trade tape and positions by address. */
export class DataApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
  ) {}

  /** `GET /trades`: an array of tape rows (some deployments wrap it in `{data}`; both are read). */
  async trades(query: Query): Promise<DataTrade[]> {
    const answer = await this.http.json<DataTrade[] | { data?: DataTrade[] }>({ url: `${this.host}/trades`, query });
    return Array.isArray(answer) ? answer : (answer.data ?? []);
  }

  /** `GET /positions?user=`: public, by the address that holds the funds (the funder, not the signing key). */
  positions(query: Query): Promise<DataPosition[]> {
    return this.http.json<DataPosition[]>({ url: `${this.host}/positions`, query });
  }
}
