import { checkPayload, unlessMissing } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import type { Query } from './client.js';
import { gammaEvents, gammaEventsKeyset, gammaMarket, gammaMarkets, gammaSearch, gammaSeriesList, gammaSeriesOne } from './schemas.js';
import type { GammaEvent, GammaEventsKeyset, GammaMarket, GammaSearchResult, GammaSeries } from './types.js';

/** Gamma: the public catalog (events, markets, series, keyword search). */
export class GammaApi {
  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
  ) {}

  /** `GET /events`: an array of events with their markets; unknown `id`/`slug` filters give `[]`. */
  events(query: Query): Promise<GammaEvent[]> {
    return this.read(gammaEvents, 'GET /events', { url: `${this.host}/events`, query });
  }

  /**
   * `GET /events/keyset`: events paged by `after_cursor` (the previous page's
   * `next_cursor`), the way through a listing deeper than the ~2,000 items
   * `/events` serves by offset. The venue ignores a `cursor` parameter and
   * answers the first page again, so only `after_cursor` is ever sent.
   */
  eventsKeyset(query: Query): Promise<GammaEventsKeyset> {
    return this.read(gammaEventsKeyset, 'GET /events/keyset', { url: `${this.host}/events/keyset`, query });
  }

  /** `GET /public-search`: fuzzy keyword search, paged by 1-based `page` and `limit_per_type`. */
  search(query: Query): Promise<GammaSearchResult> {
    return this.read(gammaSearch, 'GET /public-search', { url: `${this.host}/public-search`, query });
  }

  /** `GET /markets`: markets, each with a trimmed copy of its parent event. */
  markets(query: Query): Promise<GammaMarket[]> {
    return this.read(gammaMarkets, 'GET /markets', { url: `${this.host}/markets`, query });
  }

  /** `GET /markets/{id}`; undefined for an unknown id. */
  market(id: string): Promise<GammaMarket | undefined> {
    return unlessMissing(this.read(gammaMarket, 'GET /markets/{id}', { url: `${this.host}/markets/${encodeURIComponent(id)}` }));
  }

  /** `GET /markets/slug/{slug}`; undefined for an unknown slug. */
  marketBySlug(slug: string): Promise<GammaMarket | undefined> {
    return unlessMissing(this.read(gammaMarket, 'GET /markets/slug/{slug}', { url: `${this.host}/markets/slug/${encodeURIComponent(slug)}` }));
  }

  seriesList(query: Query): Promise<GammaSeries[]> {
    return this.read(gammaSeriesList, 'GET /series', { url: `${this.host}/series`, query });
  }

  private async read<T>(schema: Joi.Schema, endpoint: string, request: Parameters<VenueHttpClient['json']>[0]): Promise<T> {
    return checkPayload<T>(schema, await this.http.json(request), { venue: this.http.venue, endpoint });
  }

  /** `GET /series/{id}`, which embeds the series' events; undefined for an unknown id. */
  series(id: string): Promise<GammaSeries | undefined> {
    return unlessMissing(this.read<GammaSeries>(gammaSeriesOne, 'GET /series/{id}', { url: `${this.host}/series/${encodeURIComponent(id)}` }));
  }
}
