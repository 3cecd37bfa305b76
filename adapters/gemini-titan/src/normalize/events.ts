import { compact, complement, roundTo, text, toFraction, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Series } from '@predgate/core';
import type { RawContract, RawEvent, RawPrices } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { outcomeIdOf } from '../ids.js';

const eventUrl = (ticker: string) => `https://exchange.gemini.com/prediction-markets/events/${encodeURIComponent(ticker)}`;

/**
 * An event and its contracts. Each contract is a market with a YES and a NO
 * outcome; contracts follow `sortOrder` where every one has it (the venue
 * shuffles weather buckets), else the venue's order.
 */
export function normalizeEvent(raw: RawEvent): Event {
  const sorted = raw.contracts.every((contract) => typeof contract.sortOrder === 'number')
    ? [...raw.contracts].sort((a, b) => a.sortOrder! - b.sortOrder!)
    : raw.contracts;
  const single = raw.contracts.length === 1;
  return compact({
    id: raw.ticker,
    title: raw.title,
    description: text(raw.description) ?? '',
    slug: text(raw.slug) ?? raw.ticker.toLowerCase(),
    url: eventUrl(raw.ticker),
    image: text(raw.imageUrl),
    markets: sorted.map((contract) => normalizeContract(contract, raw, single)),
    volume24h: toNumber(raw.volume24h) ?? 0,
    volume: toNumber(raw.volume),
    category: text(raw.category),
    tags: raw.tags && raw.tags.length > 0 ? raw.tags : undefined,
    sourceExchange: venueId,
    sourceMetadata: compact({ id: raw.id ?? undefined, type: raw.type ?? undefined, series: raw.series ?? undefined, status: raw.status ?? undefined }),
  });
}

/**
 * One contract: YES and NO between $0.01 and $0.99, paying $1. Volumes are
 * stated per event: a single-contract event's figures are its contract's; the
 * legs of a larger event get none (0), as copying would count them twice.
 */
function normalizeContract(raw: RawContract, event: RawEvent, single: boolean): Market {
  const marketId = raw.instrumentSymbol;
  const yes = yesPrice(raw);
  const label = text(raw.label) ?? 'Yes';
  // The winning outcome where the venue names one (a voided contract has none).
  const resolution = resolutionOf(raw);
  const winner = resolution === undefined ? undefined : outcomeIdOf(marketId, resolution);
  return withBinaryRefs(
    compact({
      marketId,
      eventId: event.ticker,
      title: single ? event.title : `${event.title} ${label}`,
      description: richText(raw.description) ?? text(event.description) ?? '',
      slug: marketId.toLowerCase(),
      url: eventUrl(event.ticker),
      outcomes: [
        compact({ outcomeId: outcomeIdOf(marketId, 'yes'), marketId, label, price: yes, priceChange24h: changeOf(raw) }),
        compact({ outcomeId: outcomeIdOf(marketId, 'no'), marketId, label: `${label} (No)`, price: yes === undefined ? undefined : complement(yes) }),
      ],
      resolutionDate: toIsoDate(raw.expiryDate) ?? toIsoDate(event.expiryDate),
      volume24h: single ? (toNumber(event.volume24h) ?? 0) : 0,
      volume: single ? toNumber(event.volume) : undefined,
      liquidity: 0,
      tickSize: 0.01,
      status: statusOf(raw),
      category: text(event.category),
      sourceExchange: venueId,
      sourceMetadata: compact({
        id: raw.id ?? undefined,
        ticker: raw.ticker ?? undefined,
        status: raw.status ?? undefined,
        marketState: raw.marketState ?? undefined,
        resolutionSide: raw.resolutionSide ?? undefined,
        winners: winner === undefined ? undefined : [winner],
        winningOutcomeId: winner,
        prices: raw.prices ?? undefined,
      }),
    }),
  );
}

/**
 * The YES price: the mid of a two-sided quote, else the last trade, else the
 * mid of what buying and selling YES cost. A "0" is no quote, never a free
 * contract. A settled contract is worth 1 or 0 by its resolution side.
 */
function yesPrice(raw: RawContract): number | undefined {
  const resolved = resolutionOf(raw);
  if (resolved === 'yes') return 1;
  if (resolved === 'no') return 0;
  const quote = (value: string | null | undefined) => {
    const price = toFraction(value);
    return price === undefined || price === 0 ? undefined : price;
  };
  const prices: RawPrices = raw.prices ?? {};
  const bid = quote(prices.bestBid);
  const ask = quote(prices.bestAsk);
  if (bid !== undefined && ask !== undefined) return roundTo((bid + ask) / 2, 4);
  const last = quote(prices.lastTradePrice);
  if (last !== undefined) return last;
  const buy = quote(prices.buy?.yes);
  const sell = quote(prices.sell?.yes);
  return buy !== undefined && sell !== undefined ? roundTo((buy + sell) / 2, 4) : undefined;
}

/** `priceDelta24hPct` is a percent of the price a day ago: the absolute change is last − last / (1 + pct/100). */
function changeOf(raw: RawContract): number | undefined {
  const pct = toNumber(raw.priceDelta24hPct);
  const last = toFraction(raw.prices?.lastTradePrice);
  if (pct === undefined || pct === -100 || last === undefined || last === 0) return undefined;
  return roundTo(last - last / (1 + pct / 100), 4);
}

/** The side a settled contract resolved to, in either case the venue spells it; anything else names no winner. */
function resolutionOf(raw: RawContract): 'yes' | 'no' | undefined {
  const side = raw.resolutionSide?.toLowerCase();
  return side === 'yes' || side === 'no' ? side : undefined;
}

function statusOf(raw: RawContract): MarketStatus | undefined {
  const status = raw.status?.toLowerCase();
  if (status === 'settled' || resolutionOf(raw)) return 'resolved';
  if (status === 'closed' || status === 'under_review' || status === 'invalid' || raw.marketState?.toLowerCase() === 'closed') return 'closed';
  if (status === 'active' || status === 'approved') return 'active';
  return undefined;
}

/** Contract descriptions are rich text: `{content: [{value} | {content: [...]}]}`, flattened to their words. */
function richText(value: unknown): string | undefined {
  if (typeof value === 'string') return text(value);
  const parts: string[] = [];
  const walk = (node: unknown, depth: number) => {
    if (depth > 10 || typeof node !== 'object' || node === null) return;
    const { value: words, content } = node as { value?: unknown; content?: unknown };
    if (typeof words === 'string') parts.push(words);
    if (Array.isArray(content)) for (const child of content.slice(0, 200)) walk(child, depth + 1);
  };
  walk(value, 0);
  return text(parts.join(''));
}

/**
 * An event's series code: Gemini documents `series` as a string (`BTC05M`,
 * `WXHIGH`), while older clients read it as an object with `id`, `ticker`
 * or `symbol`; both are read, an empty one is none.
 */
export function seriesCodeOf(series: unknown): string | undefined {
  if (typeof series === 'string') return text(series);
  if (typeof series !== 'object' || series === null) return undefined;
  const { id, ticker, symbol } = series as Record<string, unknown>;
  return [ticker, symbol, id].map((value) => (typeof value === 'string' || typeof value === 'number' ? text(String(value)) : undefined)).find(Boolean);
}

/** A series gathered from its events: Gemini has no series endpoint, so the code is its id, ticker and title. */
export function seriesOf(code: string, events: Event[]): Series {
  return compact({
    id: code,
    ticker: code,
    title: code,
    category: events.find((event) => event.category)?.category,
    events,
    sourceExchange: venueId,
  });
}
