import {
  collectOffsetPages,
  compact,
  defineAdapter,
  eventListPredicate,
  mapVenueFailure,
  normalizeOrderBook,
  notSupported,
  toFraction,
  toNumber,
  withBinaryRefs,
} from '@predgate/core';
import type { AdapterContext, Event, Market, VenueFailure } from '@predgate/core';
import type { TemplateConfig } from './index.js';
import { venueApi } from './venue.js';
import type { RawEvent, RawMarket } from './venue.js';

const venue = 'template';
const pageSize = 100;

/** The venue's error bodies (`{"error": {"code": "...", "message": "..."}}`) read into unified codes. */
function mapError(failure: VenueFailure) {
  const code = (failure.body as { error?: { code?: string } } | null)?.error?.code;
  if (code === 'unknown_outcome') return mapVenueFailure(failure, { code: 'OUTCOME_NOT_FOUND' });
  return mapVenueFailure(failure);
}

export function createTemplateAdapter(context: AdapterContext, config: TemplateConfig) {
  const http = context.http({ venue, rateLimit: { requests: 10, intervalMs: 1_000 }, mapError });
  const api = venueApi(http, config.baseUrl);

  return defineAdapter({
    id: venue,
    profile: {
      displayName: 'Template venue',
      hosts: { rest: config.baseUrl },
      rateLimit: { requests: 10, intervalMs: 1_000 },
      credentials: { required: [], optional: [] },
    },

    async fetchEvents(params = {}) {
      const raw = await collectOffsetPages((offset, limit) => api.events({ offset, limit, ...(params.query ? { q: params.query } : {}) }), {
        offset: params.offset,
        limit: params.limit,
        pageSize,
        maxPages: 20,
      });
      // What the venue cannot filter on is applied here, as SPEC.md says.
      const events = raw.map(toEvent);
      const keep = eventListPredicate(params);
      return keep ? events.filter(keep) : events;
    },

    async fetchOrderBook(id, limit, params) {
      // With `outcome` naming an outcome, the first argument is its market's id: the book is the outcome's.
      if (params?.outcome === 'yes' || params?.outcome === 'no') {
        throw notSupported('fetchOrderBook', 'name the outcome by its id: this venue keeps one book per outcome and has no market lookup');
      }
      const raw = await api.book(params?.outcome ?? id);
      const level = ([price, size]: [string, string]) => ({ price: toNumber(price)!, size: toNumber(size)! });
      const book = normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: raw.ts });
      return limit === undefined ? book : { ...book, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
    },
  });
}

function toEvent(raw: RawEvent): Event {
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
