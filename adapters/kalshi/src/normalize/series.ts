import { compact, text } from '@predgate/core';
import type { Series } from '@predgate/core';
import type { RawSeries } from '../api/types.js';
import type { SeriesInfo } from './event.js';
import type { Origin } from './origin.js';

/** A Kalshi series (the recurring template of events, `KXFEDDECISION`) as a unified series. */
export function normalizeSeries(raw: RawSeries, origin: Origin): Series {
  const { ticker, title, frequency, category, tags: _tags, ...rest } = raw;
  return compact<Series>({
    id: ticker,
    ticker,
    title: title ?? '',
    recurrence: text(frequency),
    category: text(category),
    tags: tagsOf(raw),
    sourceMetadata: rest,
    sourceExchange: origin.exchange,
  });
}

/** The part of a series its events inherit. */
export function seriesInfo(raw: RawSeries): SeriesInfo {
  return compact({ title: text(raw.title), category: text(raw.category), tags: tagsOf(raw) });
}

function tagsOf(raw: RawSeries): string[] {
  return Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string' && tag !== '') : [];
}
