import { compact, complement, text, toFraction, toIsoDate, toList, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome } from '@predgate/core';
import type { RawEvent, RawMarket } from '../api/schemas.js';
import { venueId } from '../venue.js';

/** Midpoints of first outcomes by token id: the venue's market payloads carry no prices. */
export type Mids = Map<string, number>;

export function normalizeEvent(raw: RawEvent, mids: Mids): Event {
  const id = String(raw.id);
  const slug = text(raw.slug) ?? id;
  const markets = (raw.markets ?? []).map((market) => normalizeMarket(market, raw, mids));
  const tags = (raw.tags ?? []).map((tag) => (typeof tag === 'string' ? tag : text(tag.label))).filter((tag): tag is string => Boolean(tag));
  return compact({
    id,
    title: raw.title,
    description: text(raw.description) ?? '',
    slug,
    url: `https://probable.markets/event/${encodeURIComponent(slug)}`,
    image: text(raw.icon) ?? text(raw.image),
    markets,
    volume24h: toNumber(raw.volume24hr) ?? markets.reduce((sum, market) => sum + market.volume24h, 0),
    volume: toNumber(raw.volume),
    category: text(raw.category) ?? tags[0],
    tags: tags.length > 0 ? tags : undefined,
    sourceExchange: venueId,
  });
}

/** Outcome tokens of a market: `tokens[]` where sent, else the JSON-text `outcomes` zipped with `clobTokenIds`. */
export function outcomeTokens(raw: RawMarket): Array<{ tokenId: string; label: string; winner?: boolean | null; price?: number | string | null }> {
  if (raw.tokens && raw.tokens.length > 0)
    return raw.tokens.map((token) => ({ tokenId: token.token_id, label: text(token.outcome) ?? '', winner: token.winner, price: token.price }));
  const labels = toList(raw.outcomes) ?? [];
  const ids = toList(raw.clobTokenIds) ?? [];
  return ids.map((tokenId, index) => ({ tokenId, label: labels[index] ?? '' }));
}

/**
 * A binary market of two outcome tokens. The first outcome's price is its
 * token's midpoint (or its `tokens[].price`), the second its complement; a
 * resolved market's prices are its result; with none of these, unknown.
 */
export function normalizeMarket(raw: RawMarket, event: RawEvent | undefined, mids: Mids): Market {
  const marketId = String(raw.id);
  const tokens = outcomeTokens(raw);
  const resolvedIndex = tokens.findIndex((token) => token.winner === true);
  const first = resolvedIndex >= 0 ? (resolvedIndex === 0 ? 1 : 0) : (toFraction(tokens[0]?.price) ?? (tokens[0] ? mids.get(tokens[0].tokenId) : undefined));
  const outcomes: Outcome[] = tokens.map((token, index) =>
    compact({ outcomeId: token.tokenId, marketId, label: token.label, price: first === undefined ? undefined : index === 0 ? first : complement(first) }),
  );
  const eventSlug = text(event?.slug) ?? String(event?.id ?? raw.event_id ?? '');
  return withBinaryRefs(
    compact({
      marketId,
      eventId: event ? String(event.id) : raw.event_id == null ? undefined : String(raw.event_id),
      title: text(raw.question) ?? text(raw.title) ?? marketId,
      description: text(raw.description) ?? '',
      slug: text(raw.market_slug),
      url: `https://probable.markets/event/${encodeURIComponent(eventSlug)}?market=${marketId}`,
      outcomes,
      resolutionDate: toIsoDate(raw.endDate),
      volume24h: toNumber(raw.volume24hr) ?? 0,
      volume: toNumber(raw.volume),
      liquidity: toNumber(raw.liquidity) ?? 0,
      status: statusOf(raw, resolvedIndex >= 0),
      sourceExchange: venueId,
      // The venue names the winning token once resolved: its label and id travel with the market.
      sourceMetadata: compact({
        conditionId: text(raw.condition_id),
        groupItemTitle: text(raw.groupItemTitle),
        winner: tokens[resolvedIndex]?.label,
        winningOutcomeId: tokens[resolvedIndex]?.tokenId,
      }),
    }),
  );
}

function statusOf(raw: RawMarket, resolved: boolean): MarketStatus {
  if (raw.resolved || resolved) return 'resolved';
  if (raw.closed || raw.archived) return 'closed';
  return raw.active === false ? 'inactive' : 'active';
}
