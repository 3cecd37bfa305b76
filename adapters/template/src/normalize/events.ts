import { compact, toFraction, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { RawEvent, RawMarket } from '../api/schemas.js';
import { venue } from '../venue.js';

export function toEvent(raw: RawEvent): Event {
  const url = `https://example-venue.com/event/${raw.slug}`;
  return compact({
    id: String(raw.id),
    title: raw.title,
    description: '',
    slug: raw.slug,
    url,
    category: raw.category ?? undefined,
    volume24h: toNumber(raw.volume_24h) ?? 0,
    markets: raw.markets.map((market) => toMarket(market, String(raw.id), url)),
    sourceExchange: venue,
    sourceMetadata: { id: raw.id, slug: raw.slug },
  });
}

function toMarket(raw: RawMarket, eventId: string, url: string): Market {
  const marketId = String(raw.id);
  return withBinaryRefs(
    compact({
      marketId,
      eventId,
      title: raw.question,
      description: '',
      url,
      status: raw.status === 'open' ? ('active' as const) : raw.status,
      volume24h: toNumber(raw.volume_24h) ?? 0,
      liquidity: 0,
      outcomes: raw.outcomes.map((outcome) => compact({ outcomeId: String(outcome.id), marketId, label: outcome.name, price: toFraction(outcome.price) })),
      sourceExchange: venue,
      sourceMetadata: { id: raw.id, status: raw.status },
    }),
  );
}
