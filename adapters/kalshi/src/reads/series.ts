import { isPredgateError, offsetWindow, unlessMissing } from '@predgate/core';
import type { Series, SeriesFetchParams } from '@predgate/core';
import { segment } from '../api/client.js';
import type { RawSeries } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { ticker } from '../ids.js';
import type { SeriesInfo } from '../normalize/event.js';
import { normalizeSeries, seriesInfo } from '../normalize/series.js';
import { checked } from '../api/schemas.js';

/**
 * fetchSeries: one series by ticker (`id` or `slug`), or the list (`GET
 * /series`, not paged by the venue) narrowed server-side by `category` and
 * here by `query` (title or ticker) and `recurrence`, then `offset`/`limit`.
 */
export async function fetchSeries(ctx: KalshiContext, params: SeriesFetchParams = {}): Promise<Series[]> {
  const key = params.id ?? params.slug;
  if (key !== undefined) {
    const found = await seriesByTicker(ctx, key);
    return found ? [normalizeSeries(found, ctx.origin)] : [];
  }
  const answer = checked<{ series?: RawSeries[] | null }>(
    'GET /series',
    ctx.origin.exchange,
    await ctx.api.get<unknown>('/series', { category: params.category }),
  );
  const query = params.query?.toLowerCase();
  const recurrence = params.recurrence?.toLowerCase();
  const matching = (answer.series ?? []).filter(
    (series) =>
      (query === undefined || `${series.title ?? ''} ${series.ticker}`.toLowerCase().includes(query)) &&
      (recurrence === undefined || series.frequency?.toLowerCase() === recurrence),
  );
  const { start, end } = offsetWindow(matching.length, params, ctx.config.pageSize, ctx.origin.exchange);
  return matching.slice(start, end).map((series) => normalizeSeries(series, ctx.origin));
}

/** The series an event belongs to, for its tags and category; undefined when it cannot be had, as it only enriches. */
export async function seriesInfoOf(ctx: KalshiContext, seriesTicker: string | undefined): Promise<SeriesInfo | undefined> {
  if (!seriesTicker) return undefined;
  try {
    const found = await seriesByTicker(ctx, seriesTicker);
    return found ? seriesInfo(found) : undefined;
  } catch (error) {
    ctx.logger.debug({ seriesTicker, code: isPredgateError(error) ? error.code : undefined }, 'series enrichment skipped');
    return undefined;
  }
}

async function seriesByTicker(ctx: KalshiContext, key: string): Promise<RawSeries | undefined> {
  const answer = await unlessMissing(
    ctx.api.get<unknown>(`/series/${segment(ticker(key))}`).then((body) => checked<{ series?: RawSeries }>('GET /series/{ticker}', ctx.origin.exchange, body)),
  );
  return answer?.series;
}
