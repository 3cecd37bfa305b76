import { checkPayload } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import type { Query } from './client.js';
import { dataPositions, dataTrades } from './schemas.js';
import type { DataPosition, DataTrade } from './types.js';

/** The Data API: the public trade tape and positions by address. */
export class DataApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
  ) {}

  /** `GET /trades`: an array of tape rows (some deployments wrap it in `{data}`; both are read). */
  async trades(query: Query): Promise<DataTrade[]> {
    const answer = checkPayload<DataTrade[] | { data: DataTrade[] }>(dataTrades, await this.http.json({ url: `${this.host}/trades`, query }), {
      venue: this.http.venue,
      endpoint: 'GET /trades',
    });
    return Array.isArray(answer) ? answer : answer.data;
  }

  /** `GET /positions?user=`: public, by the address that holds the funds (the funder, not the signing key). */
  async positions(query: Query): Promise<DataPosition[]> {
    return checkPayload<DataPosition[]>(dataPositions, await this.http.json({ url: `${this.host}/positions`, query }), {
      venue: this.http.venue,
      endpoint: 'GET /positions',
    });
  }
}
