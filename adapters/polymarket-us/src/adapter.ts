import {
  PredgateError,
  bookToDepth,
  defineAdapter,
  eventListPredicate,
  invalidArgument,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  venueMessageOf,
} from '@predgate/core';
import type { AdapterContext, ErrorCode, Event, EventFetchParams, StatusFilter, VenueFailure } from '@predgate/core';
import { polymarketUsApi } from './api.js';
import type { PolymarketUsApi } from './api.js';
import { PolymarketUsSigner } from './auth/signer.js';
import type { PolymarketUsConfig } from './index.js';
import { PolymarketUsStream } from './streams/market-stream.js';
import { normalizeBook, normalizeEvent, normalizeMarket, normalizeOrder, normalizePosition, partsOfOutcomeId, venueId } from './normalize.js';

/**
 * The documented limit: 20 requests a second per API key and per IP. The
 * gateway's Cloudflare layer throttles bursts well below it (429 with an HTML
 * body and Retry-After), which the HTTP client honours; the adapter keeps to
 * the documented figure rather than guessing the throttle.
 */
const rateLimit = { requests: 20, intervalMs: 1_000 };
const defaultLimit = 100;
const pageSize = 100;
const credentialMembers = ['apiKey', 'privateKey'];

const rejections: Array<[RegExp, ErrorCode]> = [
  [/insufficient|buying power|balance/i, 'INSUFFICIENT_FUNDS'],
  [/invalid|price|quantity|tick|self.?match|closed|expired|halted|suspended/i, 'INVALID_ORDER'],
];

function mapError(failure: VenueFailure) {
  if (failure.status === 404) {
    const path = failure.path;
    const code: ErrorCode = path.startsWith('/v1/events') ? 'EVENT_NOT_FOUND' : path.startsWith('/v1/order/') ? 'ORDER_NOT_FOUND' : 'MARKET_NOT_FOUND';
    return mapVenueFailure(failure, { code });
  }
  if (failure.status === 400) {
    const code = rejections.find(([pattern]) => pattern.test(venueMessageOf(failure.body) ?? ''))?.[1];
    return code ? mapVenueFailure(failure, { code }) : undefined;
  }
  return undefined;
}

/**
 * Polymarket US: events and binary markets from the public gateway, one book
 * per market quoted on the long side; balances, positions and orders signed
 * with the account's Ed25519 key.
 */
export function createPolymarketUsAdapter(context: AdapterContext, config: PolymarketUsConfig) {
  let signer: PolymarketUsSigner | undefined;
  const sign = (method: string, path: string) => {
    const { apiKey, privateKey, apiSecret } = context.credentials ?? {};
    const secret = privateKey ?? apiSecret;
    if (!apiKey || !secret) throw missingCredentials(venueId, credentialMembers);
    try {
      signer ??= new PolymarketUsSigner(apiKey, secret);
    } catch {
      // The secret's value stays out of the message.
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: privateKey must be the base64 Ed25519 secret key shown when the API key was created`, {
        detail: { member: 'privateKey' },
      });
    }
    return signer.headers(method, path, Math.floor(context.clock.now()));
  };
  const api = polymarketUsApi(context.http({ venue: venueId, rateLimit, mapError }), { gateway: config.gatewayUrl, api: config.apiUrl }, sign);
  const stream = new PolymarketUsStream({
    url: config.wsUrl,
    venue: venueId,
    credentials: context.credentials ?? config.stream.credentials,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  /** A streamed outcome: `<slug>:long|short` (the side picks the book, as in fetchOrderBook). */
  const streamed = (outcomeId: string) => {
    const parts = partsOfOutcomeId(outcomeId);
    if (!parts)
      throw invalidArgument('outcomeId', `${outcomeId.slice(0, 100)} is not an outcome id of ${venueId}: give <market slug>:long or <market slug>:short`);
    return parts;
  };

  const bySlug = async <T>(lookup: Promise<T>): Promise<T | undefined> => {
    try {
      return await lookup;
    } catch (error) {
      if (isPredgateError(error) && (error.code === 'EVENT_NOT_FOUND' || error.code === 'MARKET_NOT_FOUND')) return undefined;
      throw error;
    }
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Polymarket US',
      hosts: { gateway: config.gatewayUrl, api: config.apiUrl, ws: config.wsUrl },
      rateLimit,
      credentials: { required: credentialMembers, optional: ['apiSecret'] },
      unsupported: {
        fetchTrades: 'Polymarket US has no public trade tape over REST; prints come only over its websocket (watchTrades)',
        fetchOHLCV: 'Polymarket US publishes no price history',
        fetchAllOrders: 'Polymarket US has no order history read; fills are in fetchMyTrades',
      },
    },

    async fetchEvents(params = {}) {
      const keep = eventListPredicate(params);
      const events = await selectEvents(api, params, bySlug);
      return (keep ? events.filter(keep) : events).slice(0, params.limit ?? defaultLimit);
    },

    async fetchMarkets(params = {}) {
      const slug = params.marketId ?? params.slug ?? (params.outcomeId === undefined ? undefined : partsOfOutcomeId(params.outcomeId)?.slug);
      const keep = marketListPredicate(params);
      if (slug !== undefined) {
        const answer = await bySlug(api.marketBySlug(slug));
        const market = answer && normalizeMarket(answer.market);
        return market && (!keep || keep(market)) ? [market] : [];
      }
      const { filter: _marketFilter, ...listParams } = params;
      const markets =
        params.eventId || params.query || params.category || params.tags || params.series
          ? (await selectEvents(api, listParams, bySlug)).flatMap((event) => event.markets)
          : (
              await pages((limit, offset) => api.markets({ ...statusQuery(params.status ?? 'active'), limit, offset }).then((page) => page.markets), params)
            ).map((market) => normalizeMarket(market));
      return markets.filter((market) => !keep || keep(market)).slice(0, params.limit ?? defaultLimit);
    },

    /** One book per market, quoted on the long side; the short outcome's book is its mirror (pmxt handed out the long book for both). */
    async fetchOrderBook(id, limit, params = {}) {
      const wanted = params.outcome ?? params.side;
      const parts =
        partsOfOutcomeId(wanted ?? '') ??
        partsOfOutcomeId(id) ??
        (wanted === 'yes' || wanted === 'no' ? { slug: id, side: wanted === 'yes' ? ('long' as const) : ('short' as const) } : undefined);
      if (!parts)
        throw invalidArgument(
          'params.outcome',
          `${id.slice(0, 100)} is a market slug: choose its book with params.outcome (yes, no or an outcome id <slug>:long|short)`,
        );
      const { marketData } = await api.book(parts.slug);
      return bookToDepth(normalizeBook(marketData, parts.side, context.clock.now()), limit ?? params.limit);
    },

    /** The live book of `<slug>:long|short` over the markets websocket: the long side's book, mirrored for short. */
    watchOrderBook(outcomeId) {
      const { slug, side } = streamed(outcomeId);
      return stream.watchOrderBook(slug, side);
    },

    /** Live prints of `<slug>:long|short` (`SUBSCRIPTION_TYPE_TRADE`), priced on the outcome's side. */
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
      const { slug, side } = streamed(outcomeId);
      return stream.watchTrades(slug, side);
    },

    close: () => stream.close(),

    async fetchBalance() {
      return (await api.balances()).balances.map((balance) => ({
        currency: balance.currency,
        total: balance.currentBalance,
        available: balance.buyingPower,
        locked: Math.max(0, Math.round((balance.currentBalance - balance.buyingPower) * 100) / 100),
      }));
    },

    async fetchPositions() {
      const positions = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page += 1) {
        const answer = await api.positions(cursor);
        for (const [slug, raw] of Object.entries(answer.positions)) {
          const position = normalizePosition(slug, raw);
          if (position) positions.push(position);
        }
        if (answer.eof !== false || !answer.nextCursor) break;
        cursor = answer.nextCursor;
      }
      return positions;
    },

    async fetchOpenOrders(marketId) {
      return (await api.openOrders(marketId === undefined ? undefined : [marketId])).orders.map(normalizeOrder);
    },

    async fetchOrder(orderId) {
      return normalizeOrder((await api.order(orderId)).order);
    },

    /**
     * Buying or selling the long or short side of a market. The venue takes
     * the long side's price for every intent, so a short order's price is
     * sent as its complement; prices keep to the market's tick, in [0.01, 0.99].
     */
    async createOrder(params) {
      const parts = partsOfOutcomeId(params.outcomeId);
      if (!parts || parts.slug !== params.marketId) {
        throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
          detail: { marketId: params.marketId, outcomeId: params.outcomeId },
        });
      }
      if (!Number.isInteger(params.amount) || params.amount < 1) throw invalidArgument('params.amount', `${venueId} contracts trade in whole numbers`);
      if (params.type === 'limit' && params.price === undefined) throw invalidArgument('params.price', 'a limit order needs a price');
      const tick = params.tickSize ?? 0.001;
      const longPrice = params.price === undefined ? undefined : parts.side === 'long' ? params.price : 1 - params.price;
      if (longPrice !== undefined && (longPrice < 0.01 || longPrice > 0.99))
        throw invalidArgument('params.price', `${venueId} prices lie between 0.01 and 0.99`);
      const intent = `ORDER_INTENT_${params.side === 'buy' ? 'BUY' : 'SELL'}_${parts.side === 'long' ? 'LONG' : 'SHORT'}`;
      const placed = await api.placeOrder({
        marketSlug: parts.slug,
        intent,
        type: params.type === 'limit' ? 'ORDER_TYPE_LIMIT' : 'ORDER_TYPE_MARKET',
        ...(longPrice === undefined ? {} : { price: { value: (Math.round(longPrice / tick) * tick).toFixed(3), currency: 'USD' } }),
        quantity: params.amount,
        tif: params.type === 'limit' ? 'TIME_IN_FORCE_GOOD_TILL_CANCEL' : 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
      });
      return normalizeOrder((await api.order(placed.id)).order);
    },

    /** The venue's cancel needs the market slug: the order is read first, then returned cancelled. */
    async cancelOrder(orderId) {
      const order = normalizeOrder((await api.order(orderId)).order);
      await api.cancelOrder(orderId, order.marketId);
      return { ...order, status: 'cancelled' as const, remaining: 0 };
    },
  });
}

function statusQuery(status: StatusFilter): Record<string, boolean> {
  // `active=true` alone also returns stale backfilled items: open means neither closed nor archived.
  if (status === 'active') return { closed: false, archived: false };
  if (status === 'all') return {};
  return { closed: true };
}

async function pages<T>(read: (limit: number, offset: number) => Promise<T[]>, params: { limit?: number; offset?: number }): Promise<T[]> {
  const wanted = params.limit ?? defaultLimit;
  const items: T[] = [];
  for (let offset = params.offset ?? 0; items.length < wanted;) {
    const size = Math.min(pageSize, wanted - items.length);
    const page = await read(size, offset);
    items.push(...page);
    if (page.length < size) break;
    offset += page.length;
  }
  return items;
}

/** Events by slug, by keyword search, or a listing page by page. */
async function selectEvents(
  api: PolymarketUsApi,
  params: Omit<EventFetchParams, 'filter'>,
  bySlug: <T>(lookup: Promise<T>) => Promise<T | undefined>,
): Promise<Event[]> {
  const slug = params.eventId ?? params.slug;
  if (slug !== undefined) {
    const answer = await bySlug(api.eventBySlug(slug));
    return answer ? [normalizeEvent(answer.event)] : [];
  }
  const status = params.status ?? 'active';
  if (params.query) {
    const answer = await api.search({
      query: params.query,
      limit: params.limit ?? defaultLimit,
      ...(status === 'all' ? {} : { status: status === 'active' ? 'active' : 'closed' }),
    });
    return answer.events.map(normalizeEvent);
  }
  const query = {
    ...statusQuery(status),
    ...(params.category ? { categories: params.category.toLowerCase() } : {}),
    ...(params.series ? { seriesSlug: params.series } : {}),
  };
  return (await pages((limit, offset) => api.events({ ...query, limit, offset }).then((page) => page.events), params)).map(normalizeEvent);
}
