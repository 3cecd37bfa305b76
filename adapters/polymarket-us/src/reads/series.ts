import { unlessMissing } from '@predgate/core';
import type { Series, SeriesFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { normalizeSeries } from '../normalize/markets.js';
import { pages } from './paging.js';

/**
 * fetchSeries: one series by its numeric id (`/v1/series/id/{id}`) or slug,
 * or the listing page by page, narrowed by the venue on `recurrence` and
 * here by `query` (title or slug). A series' id is its slug, the key events
 * name it by (`seriesSlug`) and `fetchEvents({ series })` takes.
 */
export async function fetchSeries(ctx: PolymarketUsContext, params: SeriesFetchParams = {}): Promise<Series[]> {
  if (params.id !== undefined && /^\d{1,18}$/.test(params.id)) {
    const answer = await unlessMissing(ctx.api.seriesById(params.id));
    return answer ? [normalizeSeries(answer.series)] : [];
  }
  const slug = params.id ?? params.slug;
  const query = {
    ...(slug === undefined ? {} : { slug }),
    ...(params.recurrence === undefined ? {} : { recurrence: params.recurrence }),
  };
  const wanted = params.query?.toLowerCase();
  const listed = await pages((limit, offset) => ctx.api.series({ ...query, limit, offset }).then((page) => page.series), {
    ...params,
    // A text query is matched here: read a full window before narrowing it.
    limit: wanted === undefined ? (params.limit ?? defaultLimit) : defaultLimit * 5,
  });
  const matching = wanted === undefined ? listed : listed.filter((series) => `${series.title ?? ''} ${series.slug}`.toLowerCase().includes(wanted));
  return matching.slice(0, params.limit ?? defaultLimit).map(normalizeSeries);
}
