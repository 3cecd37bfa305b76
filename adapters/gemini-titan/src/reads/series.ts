import { notSupported } from '@predgate/core';
import type { Event, Series, SeriesFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { GeminiContext } from '../context.js';
import { seriesCodeOf, seriesOf } from '../normalize/events.js';
import { remember, selectEvents } from './events.js';

/** Every open event the venue lists, at most this many, is read to gather series. */
const eventsRead = 5_000;

/**
 * fetchSeries, gathered from the open events: Gemini has no series endpoint,
 * but each event names its series (`series`). One series by code (`id` or
 * `slug`), or all of them narrowed by `category` and by `query` (the code or
 * an event's title), in order of their codes, then `offset`/`limit`. The
 * venue states no recurrence, so a `recurrence` filter is refused by name.
 */
export async function fetchSeries(ctx: GeminiContext, params: SeriesFetchParams = {}): Promise<Series[]> {
  if (params.recurrence !== undefined) throw notSupported('fetchSeries', 'Gemini states no recurrence for its series: leave out recurrence');
  const events = remember(
    ctx,
    await selectEvents(ctx, { status: 'active', limit: eventsRead, ...(params.category === undefined ? {} : { category: params.category }) }),
  );
  const byCode = new Map<string, Event[]>();
  for (const event of events) {
    const code = seriesCodeOf(event.sourceMetadata?.series);
    if (code !== undefined) byCode.set(code, [...(byCode.get(code) ?? []), event]);
  }
  const wanted = params.id ?? params.slug;
  const query = params.query?.toLowerCase();
  const matching = [...byCode.entries()]
    .filter(([code]) => wanted === undefined || code === wanted)
    .filter(([code, members]) => query === undefined || [code, ...members.map((event) => event.title)].some((words) => words.toLowerCase().includes(query)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const start = params.offset ?? 0;
  return matching.slice(start, start + (params.limit ?? defaultLimit)).map(([code, members]) => seriesOf(code, members));
}
