import {
  compact,
  complement,
  invertBinaryBook,
  normalizeOrderBook,
  settledBinaryMarket,
  text,
  toEpochMs,
  toFraction,
  toIsoDate,
  toNumber,
  withBinaryRefs,
} from '@predgate/core';
import type { Event, Market, MarketStatus, OrderBook, Series } from '@predgate/core';
import type { RawBook, RawEvent, RawMarket, RawSeries, RawSettlement, RawSide } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { outcomeIdOf } from '../ids.js';
import type { Side } from '../ids.js';

export function normalizeEvent(raw: RawEvent): Event {
  const tags = (raw.tags ?? []).map((tag) => (typeof tag === 'string' ? tag : text(tag.label))).filter((tag): tag is string => Boolean(tag));
  const category = text(raw.category) ?? tags[0];
  return compact({
    id: raw.slug,
    title: raw.title,
    description: text(raw.description) ?? '',
    slug: raw.slug,
    url: `https://polymarket.us/event/${encodeURIComponent(raw.slug)}`,
    image: text(raw.image),
    markets: (raw.markets ?? []).map((market) => normalizeMarket(market, raw)),
    // Volumes are in contracts (shares), as the venue counts them.
    volume24h: toNumber(raw.volume24hr) ?? 0,
    volume: toNumber(raw.volume),
    category,
    tags: tags.length > 0 ? tags : undefined,
    sourceExchange: venueId,
    sourceMetadata: compact({
      id: raw.id ?? undefined,
      seriesSlug: raw.seriesSlug ?? undefined,
      closed: raw.closed ?? undefined,
      archived: raw.archived ?? undefined,
    }),
  });
}

/**
 * Every market is binary: a long side and a short side, labelled as the
 * venue describes them (a team, Yes/No, Over/Under). Each side's price is the
 * venue's price to buy it; a side without one is the complement of the other.
 */
export function normalizeMarket(raw: RawMarket, event?: RawEvent): Market {
  const sides = raw.marketSides ?? [];
  const long = sides.find((side) => side.long);
  const short = sides.find((side) => !side.long);
  const longPrice = toFraction(long?.price);
  const shortPrice = toFraction(short?.price);
  const outcome = (side: Side, source: RawSide | undefined, price: number | undefined, other: number | undefined) =>
    compact({
      outcomeId: outcomeIdOf(raw.slug, side),
      marketId: raw.slug,
      label: text(source?.description) ?? side,
      price: price ?? (other === undefined ? undefined : complement(other)),
      metadata: { side, marketSideId: source?.id ?? null },
    });
  const question = text(raw.question);
  const title = text(raw.title);
  return withBinaryRefs(
    compact({
      marketId: raw.slug,
      eventId: text(raw.eventSlug) ?? event?.slug,
      title: question && title && question !== title ? `${question} - ${title}` : (question ?? title ?? raw.slug),
      description: text(raw.description) ?? '',
      slug: raw.slug,
      url: `https://polymarket.us/market/${encodeURIComponent(raw.slug)}`,
      outcomes: [outcome('long', long, longPrice, shortPrice), outcome('short', short, shortPrice, longPrice)],
      resolutionDate: toIsoDate(raw.endDate) ?? toIsoDate(event?.endDate),
      volume24h: toNumber(raw.volume24hr) ?? 0,
      volume: toNumber(raw.volume),
      liquidity: toNumber(raw.liquidity) ?? 0,
      tickSize: raw.orderPriceMinTickSize ?? undefined,
      status: statusOf(raw),
      category: text(raw.category) ?? text(event?.category),
      sourceExchange: venueId,
      sourceMetadata: compact({ id: raw.id ?? undefined, marketType: raw.marketType ?? undefined }),
    }),
  );
}

/**
 * A settled market priced by its settlement: the long side paid the
 * settlement price (1 when it won, 0 when it lost, a fraction when the
 * market was split), the short side the rest; the market is `resolved`. The
 * winner is named in `sourceMetadata` when one side took all; a split names
 * none. An answer without a readable price in [0, 1] leaves the market as it was.
 */
export function settledMarket(market: Market, raw: RawSettlement): Market {
  const price = raw.settlementPrice;
  const paid = toNumber(raw.settlement ?? (typeof price === 'object' && price !== null ? price.value : price));
  return paid === undefined || paid < 0 || paid > 1 ? market : settledBinaryMarket(market, paid, { settlement: paid });
}

function statusOf(raw: RawMarket): MarketStatus | undefined {
  if (raw.archived) return 'archived';
  if (raw.closed) return 'closed';
  return raw.active === false ? 'inactive' : 'active';
}

/** The long side's book as the venue sends it; the short side's is its mirror (a long bid at p is a short ask at 1 − p). */
export function normalizeBook(raw: RawBook, side: Side, now: number): OrderBook {
  const level = (entry: { px: { value: string }; qty: string }) => ({ price: toNumber(entry.px.value)!, size: toNumber(entry.qty)! });
  const long = normalizeOrderBook({ bids: (raw.bids ?? []).map(level), asks: (raw.offers ?? []).map(level), timestamp: toEpochMs(raw.transactTime) ?? now });
  return side === 'long' ? long : invertBinaryBook(long);
}

/** A series: its slug is its id, the key events name it by (`seriesSlug`). */
export function normalizeSeries(raw: RawSeries): Series {
  return compact({
    id: raw.slug,
    slug: raw.slug,
    title: text(raw.title) ?? raw.slug,
    description: text(raw.description),
    recurrence: text(raw.recurrence),
    sourceExchange: venueId,
    sourceMetadata: compact({
      id: raw.id ?? undefined,
      active: raw.active ?? undefined,
      closed: raw.closed ?? undefined,
      archived: raw.archived ?? undefined,
    }),
  });
}
