import { compact, pick, text } from '@predgate/core';
import type { Event } from '@predgate/core';
import type { RawEvent, RawMarket } from '../api/types.js';
import { normalizeMarket } from './market.js';
import { roundCount } from './numbers.js';
import { eventUrl } from './origin.js';
import type { Origin } from './origin.js';

/** What a series adds to its events: Kalshi keeps tags (and, more and more, the category) on the series. */
export interface SeriesInfo {
  title?: string;
  category?: string;
  tags?: string[];
}

const metadataKeys = [
  'series_ticker',
  'sub_title',
  'mutually_exclusive',
  'collateral_return_type',
  'strike_date',
  'strike_period',
  'settlement_sources',
  'product_metadata',
  'last_updated_ts',
  'available_on_brokers',
];

/**
 * A Kalshi event with its markets. `markets` overrides the nested list, for
 * answers that carry the markets beside the event (the deprecated top-level
 * `markets` of `GET /events/{ticker}`).
 */
export function normalizeEvent(raw: RawEvent, origin: Origin, series?: SeriesInfo, markets?: RawMarket[]): Event {
  const rawMarkets = raw.markets ?? markets ?? [];
  const category = text(raw.category) ?? series?.category;
  const context = { title: raw.title ?? '', category, tags: series?.tags };
  const unified = rawMarkets.map((market) => normalizeMarket(market, context, origin));
  const sum = (values: Array<number | undefined>) => roundCount(values.reduce<number>((total, value) => total + (value ?? 0), 0));
  return compact<Event>({
    id: raw.event_ticker,
    title: raw.title ?? '',
    description: describe(rawMarkets),
    slug: raw.event_ticker,
    markets: unified,
    volume24h: sum(unified.map((market) => market.volume24h)),
    volume: sum(unified.map((market) => market.volume)),
    url: eventUrl(origin, raw.event_ticker),
    category,
    tags: series?.tags,
    sourceMetadata: { ...pick(raw, metadataKeys), ...(series?.title ? { series_title: series.title } : {}) },
    sourceExchange: origin.exchange,
  });
}

/**
 * Events have no description of their own. A single market's primary rule
 * describes its event. The markets of a multi-market event usually share one
 * rule that differs only in the market's subject ("If {x} is the Democratic
 * nominee..."): that shared wording is used when at least two markets agree
 * on it, otherwise the first market's rule.
 */
function describe(markets: RawMarket[]): string {
  const rules = markets.flatMap((market) => {
    const rule = text(market.rules_primary);
    return rule === undefined ? [] : [{ rule, subject: text(market.yes_sub_title) }];
  });
  if (rules.length === 0) return '';
  const counts = new Map<string, number>();
  for (const { rule, subject } of rules) {
    if (subject === undefined || !rule.includes(subject)) continue;
    const template = rule.replace(subject, '{x}');
    counts.set(template, (counts.get(template) ?? 0) + 1);
  }
  let shared: string | undefined;
  for (const [template, count] of counts) {
    if (count >= 2 && count > (counts.get(shared ?? '') ?? 0)) shared = template;
  }
  return shared ?? rules[0]!.rule;
}
