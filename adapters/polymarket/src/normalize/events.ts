import { compact, pick, toNumber } from '@predgate/core';
import type { Event, Series } from '@predgate/core';
import type { GammaEvent, GammaSeries } from '../api/types.js';
import { venueId } from '../venue.js';
import { categoryOf, eventUrl, normalizeMarket, tagsOf } from './markets.js';

const eventMetadataKeys = [
  'negRisk',
  'negRiskMarketID',
  'negRiskAugmented',
  'enableNegRisk',
  'seriesSlug',
  'startTime',
  'liquidity',
  'openInterest',
  'commentCount',
  'featured',
  'restricted',
  'closed',
  'active',
  'archived',
  'eventMetadata',
] as const;

/** A Gamma event with its markets in the unified form. */
export function normalizeEvent(event: GammaEvent): Event {
  const markets = (event.markets ?? []).map((market) => normalizeMarket(market, event));
  const series = event.series?.[0];
  return compact({
    id: String(event.id ?? ''),
    title: event.title ?? '',
    description: event.description ?? '',
    slug: event.slug ?? '',
    markets,
    // The event's own figure when it has one; fresh events lack it, and their markets' sum stands in.
    volume24h: Math.max(0, toNumber(event.volume24hr) ?? sum(markets.map((market) => market.volume24h))),
    volume: Math.max(0, toNumber(event.volume) ?? sum(markets.map((market) => market.volume ?? 0))),
    url: eventUrl(event.slug),
    image: event.image,
    category: categoryOf(event),
    tags: tagsOf(event),
    sourceMetadata: {
      ...pick(event, eventMetadataKeys),
      // The parent series, so a `series` filter can match its id, ticker or slug.
      ...(series ? { series: pick(series, ['id', 'ticker', 'slug', 'recurrence']) } : {}),
    },
    sourceExchange: venueId,
  });
}

/** A Gamma series; its events are included only when the venue embedded them (lookups by id). */
export function normalizeSeries(series: GammaSeries, withEvents: boolean): Series {
  return compact({
    id: String(series.id ?? ''),
    title: series.title ?? '',
    ticker: series.ticker,
    slug: series.slug,
    description: series.description,
    recurrence: series.recurrence,
    category: series.categories?.find((category) => category.label)?.label,
    tags: series.tags?.map((tag) => tag.label).filter((label): label is string => Boolean(label)),
    events: withEvents && series.events ? series.events.map(normalizeEvent) : undefined,
    image: series.image,
    sourceMetadata: pick(series, ['seriesType', 'active', 'closed', 'archived', 'volume', 'volume24hr', 'liquidity']),
    sourceExchange: venueId,
  });
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
