import type { Clock } from '@predgate/core';
import type { KalshiApi } from '../api/client.js';
import { checked } from '../api/schemas.js';
import type { RawSeries } from '../api/types.js';
import type { SeriesInfo } from '../normalize/event.js';
import type { Origin } from '../normalize/origin.js';
import { seriesInfo } from '../normalize/series.js';

/** What the directory reads through: the part of the context it needs, so the context can hold it. */
export interface SeriesSource {
  api: KalshiApi;
  origin: Origin;
  clock: Clock;
}

/** Every series' enrichment, for filtering event lists by tag; fetched once per interval, the list being large. */
export class SeriesDirectory {
  private cached: { at: number; byTicker: Map<string, SeriesInfo> } | undefined;

  constructor(private readonly maxAgeMs = 15 * 60_000) {}

  async byTicker(ctx: SeriesSource): Promise<Map<string, SeriesInfo>> {
    const now = ctx.clock.now();
    if (this.cached && now - this.cached.at < this.maxAgeMs) return this.cached.byTicker;
    const answer = checked<{ series?: RawSeries[] | null }>('GET /series', ctx.origin.exchange, await ctx.api.get<unknown>('/series'));
    const byTicker = new Map((answer.series ?? []).map((series) => [series.ticker, seriesInfo(series)]));
    this.cached = { at: now, byTicker };
    return byTicker;
  }
}
