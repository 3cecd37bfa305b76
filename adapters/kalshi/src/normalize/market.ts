import { compact, pick, text, toNumber, withBinaryRefs } from '@predgate/core';
import type { Market, MarketStatus, Outcome } from '@predgate/core';
import type { RawMarket } from '../api/types.js';
import { outcomeIdOf } from '../ids.js';
import { complement, countField, dollarsField, isoTime, roundPrice } from './numbers.js';
import { eventUrl } from './origin.js';
import type { Origin } from './origin.js';

/** What a market takes from its event: Kalshi's market objects carry no title, category or tags of their own. */
export interface EventContext {
  title?: string;
  category?: string;
  tags?: string[];
}

const statuses: Record<string, MarketStatus> = {
  initialized: 'inactive',
  unopened: 'inactive',
  inactive: 'inactive',
  paused: 'inactive',
  active: 'active',
  open: 'active',
  closed: 'closed',
  determined: 'closed',
  disputed: 'closed',
  amended: 'closed',
  finalized: 'resolved',
  settled: 'resolved',
};

/** States in which the market's outcome is known, so its price is the settlement value. */
const settledStatuses = new Set(['determined', 'finalized', 'settled']);

const metadataKeys = [
  'yes_sub_title',
  'no_sub_title',
  'market_type',
  'strike_type',
  'floor_strike',
  'cap_strike',
  'functional_strike',
  'custom_strike',
  'result',
  'settlement_value_dollars',
  'settlement_ts',
  'expiration_value',
  'open_time',
  'close_time',
  'can_close_early',
  'early_close_condition',
  'price_level_structure',
  'price_ranges',
  'yes_bid_dollars',
  'yes_ask_dollars',
  'no_bid_dollars',
  'no_ask_dollars',
  'yes_bid_size_fp',
  'yes_ask_size_fp',
  'previous_yes_bid_dollars',
  'previous_yes_ask_dollars',
  'previous_price_dollars',
  'last_price_dollars',
  'notional_value_dollars',
  'is_provisional',
  'mve_collection_ticker',
];

/** A Kalshi market (one binary contract) as a unified market with a YES and a NO outcome. */
export function normalizeMarket(raw: RawMarket, event: EventContext, origin: Origin): Market {
  const yesPrice = yesPriceOf(raw);
  const change = priceChangeOf(raw);
  const label = yesLabelOf(raw);
  const outcome = (side: 'yes' | 'no', name: string, price: number, priceChange24h: number | undefined): Outcome =>
    compact({ outcomeId: outcomeIdOf(raw.ticker, side), label: name, price, marketId: raw.ticker, priceChange24h });
  const outcomes = [
    outcome('yes', label ?? 'Yes', yesPrice, change),
    outcome('no', label ? `Not ${label}` : 'No', complement(yesPrice), change === undefined ? undefined : roundPrice(-change)),
  ];
  const eventTicker = raw.event_ticker ?? raw.ticker;
  return withBinaryRefs(
    compact<Market>({
      marketId: raw.ticker,
      title: event.title ?? text(raw.title) ?? label ?? raw.ticker,
      description: text(raw.rules_primary) ?? text(raw.rules_secondary) ?? '',
      outcomes,
      volume24h: countField(raw, 'volume_24h') ?? 0,
      // `liquidity_dollars` is deprecated and always "0.0000"; the book is the only source of depth.
      liquidity: 0,
      url: eventUrl(origin, eventTicker),
      eventId: eventTicker,
      slug: raw.ticker,
      resolutionDate: isoTime(raw.expected_expiration_time ?? raw.latest_expiration_time ?? raw.expiration_time ?? raw.close_time),
      volume: countField(raw, 'volume'),
      openInterest: countField(raw, 'open_interest'),
      category: event.category,
      tags: event.tags,
      tickSize: tickSizeOf(raw, yesPrice),
      status: raw.status === undefined ? undefined : statuses[raw.status],
      sourceMetadata: { ...pick(raw, metadataKeys), ...winnerOf(raw) },
      sourceExchange: origin.exchange,
    }),
  );
}

/**
 * The YES price: the settlement value once the outcome is known; else the
 * last trade when there was one (a never-traded market reports "0.0000");
 * else the middle of a two-sided quote; else the ask; else 0.
 */
export function yesPriceOf(raw: RawMarket): number {
  if (raw.status !== undefined && settledStatuses.has(raw.status)) {
    const settlement = dollarsField(raw, 'settlement_value') ?? resultValue(raw.result);
    if (settlement !== undefined) return clampPrice(settlement);
  }
  const last = dollarsField(raw, 'last_price');
  if (last !== undefined && last > 0) return clampPrice(last);
  const bid = dollarsField(raw, 'yes_bid');
  const ask = dollarsField(raw, 'yes_ask');
  if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) return clampPrice(roundPrice((bid + ask) / 2));
  if (ask !== undefined && ask > 0) return clampPrice(ask);
  return 0;
}

/** The winning outcome of a settled market, named the same way in every adapter. */
function winnerOf(raw: RawMarket): { winningOutcomeId?: string } {
  if (raw.status === undefined || !settledStatuses.has(raw.status)) return {};
  if (raw.result !== 'yes' && raw.result !== 'no') return {};
  return { winningOutcomeId: outcomeIdOf(raw.ticker, raw.result) };
}

function resultValue(result: string | undefined): number | undefined {
  if (result === 'yes') return 1;
  if (result === 'no') return 0;
  return undefined;
}

function priceChangeOf(raw: RawMarket): number | undefined {
  const last = dollarsField(raw, 'last_price');
  const previous = dollarsField(raw, 'previous_price');
  if (last === undefined || previous === undefined) return undefined;
  return Math.max(-1, Math.min(1, roundPrice(last - previous)));
}

/** The YES label: the market's subtitle, unless empty or a `::` placeholder. */
function yesLabelOf(raw: RawMarket): string | undefined {
  // `no_sub_title` is not used: recordings show it repeating the YES text.
  for (const candidate of [raw.yes_sub_title, raw.subtitle]) {
    const label = text(candidate);
    if (label !== undefined && !label.startsWith('::')) return label;
  }
  return undefined;
}

/** The price step at the current price: `price_ranges` steps (dollar strings), else the legacy `tick_size` in cents. */
function tickSizeOf(raw: RawMarket, price: number): number | undefined {
  const ranges = (raw.price_ranges ?? [])
    .map((range) => ({ start: toNumber(range.start) ?? 0, end: toNumber(range.end) ?? 1, step: toNumber(range.step) }))
    .filter((range): range is { start: number; end: number; step: number } => range.step !== undefined && range.step > 0 && range.step <= 1);
  if (ranges.length > 0) {
    const current = ranges.find((range) => range.start <= price && price <= range.end);
    return current?.step ?? Math.min(...ranges.map((range) => range.step));
  }
  const cents = toNumber(raw.tick_size);
  return cents !== undefined && cents > 0 && cents <= 100 ? cents / 100 : undefined;
}

function clampPrice(value: number): number {
  return Math.max(0, Math.min(1, value));
}
