import {
  PredgateError,
  collectOffsetPages,
  defineAdapter,
  eventListPredicate,
  invalidArgument,
  invertBinaryBook,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  normalizeOrderBook,
  notSupported,
  bookToDepth,
  toNumber,
} from '@predgate/core';
import type { AdapterContext, ErrorCode, Event, EventFetchParams, OrderHistoryParams, StatusFilter, VenueFailure } from '@predgate/core';
import { geminiApi } from './api.js';
import type { GeminiApi, RawLevel, RawOrder } from './api.js';
import { GeminiSigner } from './auth/signer.js';
import type { GeminiTitanConfig } from './index.js';
import { normalizeEvent, normalizeOrder, normalizePosition, outcomeIdOf, sideOfOutcomeId, venueId } from './normalize.js';
import { GeminiStream } from './streams/market-stream.js';

/** Public endpoints allow 120 requests a minute; private ones 600, on a budget of their own at the venue. */
const rateLimit = { requests: 120, intervalMs: 60_000 };
const pageSize = 500;
const defaultLimit = 100;
const credentialMembers = ['apiKey', 'apiSecret'];

/** Gemini's reasons (`reason`, or `error` in the prediction-markets form) to unified codes. */
const reasons: Array<[RegExp, ErrorCode]> = [
  [/terms/i, 'AUTHENTICATION_ERROR'],
  [/InvalidSignature|InvalidApiKey|MissingApikeyHeader|MissingRole|InvalidNonce|MissingPayloadHeader|MissingSignatureHeader/i, 'AUTHENTICATION_ERROR'],
  [/InsufficientFunds/i, 'INSUFFICIENT_FUNDS'],
  [/OrderNotFound/i, 'ORDER_NOT_FOUND'],
  [/InvalidQuantity|InvalidPrice|LimitPriceOffTick|MarketNotOpen|UnknownInstrument|InvalidSymbol|DuplicateOrder|InvalidInput/i, 'INVALID_ORDER'],
];

function mapError(failure: VenueFailure) {
  const body = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as { reason?: unknown; error?: unknown; message?: unknown };
  const reason = [body.reason, body.error, body.message, typeof failure.body === 'string' ? failure.body : undefined]
    .filter((part) => typeof part === 'string')
    .join(' ');
  if (/terms/i.test(reason)) {
    // Accepting legal terms is the account holder's act, not the gateway's.
    return mapVenueFailure(failure, {
      code: 'AUTHENTICATION_ERROR',
      message: `${venueId}: this API key's account has not accepted Gemini's prediction-market terms; accept them on gemini.com (or POST /v1/prediction-markets/terms/accept) and retry`,
    });
  }
  if (failure.status === 404 && failure.path.startsWith('/v1/prediction-markets/events/')) return mapVenueFailure(failure, { code: 'EVENT_NOT_FOUND' });
  const code = failure.status === 429 ? undefined : reasons.find(([pattern]) => pattern.test(reason))?.[1];
  return code ? mapVenueFailure(failure, { code }) : undefined;
}

/**
 * Gemini Predictions: public events, books, trades and candles; orders and
 * positions over HMAC-signed private calls. Each contract is one book quoted
 * on YES; the NO book is its mirror.
 */
export function createGeminiTitanAdapter(context: AdapterContext, config: GeminiTitanConfig) {
  let signer: GeminiSigner | undefined;
  const signerFor = () => {
    const { apiKey, apiSecret } = context.credentials ?? {};
    if (!apiKey || !apiSecret) throw missingCredentials(venueId, credentialMembers);
    signer ??= new GeminiSigner(apiKey, apiSecret, () => context.clock.now());
    return signer;
  };
  const api = geminiApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl, signerFor);
  const stream = new GeminiStream({
    url: config.wsUrl,
    venue: venueId,
    clock: context.clock,
    depth: config.stream.depth,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  // Contracts are looked up through their event; listing fills this map so a later lookup costs one call.
  const eventOfSymbol = new Map<string, string>();

  const remember = (events: Event[]) => {
    for (const event of events) for (const market of event.markets) eventOfSymbol.set(market.marketId, event.id);
    return events;
  };

  const eventOf = async (ticker: string): Promise<Event | undefined> => {
    try {
      return remember([normalizeEvent(await api.event(ticker))])[0];
    } catch (error) {
      if (isPredgateError(error) && error.code === 'EVENT_NOT_FOUND') return undefined;
      throw error;
    }
  };

  /** The event holding a contract: known from a listing, else tried from the symbol (`GEMI-<event>-<contract>`), longest first. */
  const eventOfContract = async (symbol: string): Promise<Event | undefined> => {
    const known = eventOfSymbol.get(symbol);
    if (known) return eventOf(known);
    const parts = symbol.replace(/^GEMI-/, '').split('-');
    for (let cut = parts.length - 1; cut >= Math.max(1, parts.length - 3); cut -= 1) {
      const event = await eventOf(parts.slice(0, cut).join('-'));
      if (event?.markets.some((market) => market.marketId === symbol)) return event;
    }
    return undefined;
  };

  const contractSide = (id: string, wanted?: string): { symbol: string; side: 'yes' | 'no' } => {
    const named = sideOfOutcomeId(wanted ?? '') ?? sideOfOutcomeId(id);
    if (named) return named;
    if (wanted === 'yes' || wanted === 'no') return { symbol: id, side: wanted };
    throw invalidArgument(
      'params.outcome',
      `${id.slice(0, 100)} is a contract symbol: choose its book with params.outcome (yes or no) or give an outcome id (<symbol>:yes)`,
    );
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Gemini Predictions',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: credentialMembers, optional: [] },
      unsupported: {
        fetchBalance: 'Gemini documents no balance read for prediction-market accounts',
        fetchMyTrades: 'Gemini has no fills read for prediction markets; fills show on the orders (fetchClosedOrders)',
        fetchSeries: 'Gemini has no series endpoint; an event’s series code is in its sourceMetadata',
      },
    },

    // Streams: the partial-depth and trade streams of one public connection per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
      return stream.watchTrades(outcomeId);
    },
    close: () => stream.close(),

    async fetchEvents(params = {}) {
      const events = remember(await selectEvents(api, params, eventOf));
      const keep = eventListPredicate(params);
      return (keep ? events.filter(keep) : events).slice(0, params.limit ?? defaultLimit);
    },

    async fetchMarkets(params = {}) {
      const symbol = params.marketId ?? params.slug?.toUpperCase() ?? (params.outcomeId === undefined ? undefined : sideOfOutcomeId(params.outcomeId)?.symbol);
      const keep = marketListPredicate(params);
      if (symbol !== undefined) {
        const event = await eventOfContract(symbol);
        return (event?.markets ?? []).filter((market) => market.marketId === symbol && (!keep || keep(market)));
      }
      const { filter: _marketFilter, ...listParams } = params;
      const events = remember(await selectEvents(api, listParams, eventOf));
      return events
        .flatMap((event) => event.markets)
        .filter((market) => !keep || keep(market))
        .slice(0, params.limit ?? defaultLimit);
    },

    async fetchOrderBook(id, limit, params = {}) {
      const { symbol, side } = contractSide(id, params.outcome ?? params.side);
      const raw = await api.book(symbol);
      const level = (entry: RawLevel) => ({ price: toNumber(entry.price)!, size: toNumber(entry.amount)! });
      const yes = normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: context.clock.now() });
      return bookToDepth(side === 'yes' ? yes : invertBinaryBook(yes), limit ?? params.limit);
    },

    async fetchTrades(outcomeId, params = {}) {
      const { symbol, side } = contractSide(outcomeId);
      const rows = await api.trades(symbol, Math.min(params.limit ?? 50, 500));
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      // The tape is YES's: a YES buy at p is a NO sell at 1 − p.
      return rows
        .map((row) => {
          const price = toNumber(row.price)!;
          const yesSide = row.type;
          return {
            id: String(row.tid),
            timestamp: row.timestampms,
            price: side === 'yes' ? price : Math.round((1 - price) * 100) / 100,
            amount: toNumber(row.amount)!,
            side: side === 'yes' ? yesSide : yesSide === 'buy' ? ('sell' as const) : ('buy' as const),
            outcomeId: outcomeIdOf(symbol, side),
          };
        })
        .filter((trade) => trade.timestamp >= start && trade.timestamp <= end)
        .slice(0, params.limit ?? 50);
    },

    async fetchOHLCV(outcomeId, params) {
      const { symbol, side } = contractSide(outcomeId);
      const timeFrame = timeFrames[params.resolution];
      if (!timeFrame)
        throw invalidArgument(
          'params.resolution',
          `${venueId} candles come at ${Object.keys(timeFrames).join(', ')}; "${params.resolution}" is not one of them`,
        );
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      const flip = (value: number) => Math.round((1 - value) * 100) / 100;
      const candles = (await api.candles(symbol, timeFrame))
        .map(([timestamp, open, high, low, close, volume]) =>
          side === 'yes'
            ? { timestamp, open, high, low, close, volume }
            : { timestamp, open: flip(open), high: flip(low), low: flip(high), close: flip(close), volume },
        )
        .filter((candle) => candle.timestamp >= start && candle.timestamp <= end)
        .sort((a, b) => a.timestamp - b.timestamp);
      return params.limit === undefined ? candles : candles.slice(-params.limit);
    },

    async fetchOpenOrders(marketId) {
      return (await orderPages(api.activeOrders, marketId === undefined ? {} : { symbol: marketId })).map(normalizeOrder);
    },

    async fetchClosedOrders(params = {}) {
      return history(await orderPages(api.orderHistory, params.marketId === undefined ? {} : { symbol: params.marketId }), params);
    },

    async fetchAllOrders(params = {}) {
      const fields = params.marketId === undefined ? {} : { symbol: params.marketId };
      const [open, closed] = [await orderPages(api.activeOrders, fields), await orderPages(api.orderHistory, fields)];
      return history([...open, ...closed], params);
    },

    async fetchOrder(orderId) {
      const fields = {};
      const found =
        (await orderPages(api.activeOrders, fields)).find((order) => String(order.orderId) === orderId) ??
        (await orderPages(api.orderHistory, fields)).find((order) => String(order.orderId) === orderId);
      if (!found) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 40)}`, { detail: { orderId } });
      return normalizeOrder(found);
    },

    async fetchPositions() {
      return (await api.positions()).positions.map(normalizePosition);
    },

    /**
     * A limit order rests until cancelled; a market order is an
     * immediate-or-cancel limit at the caller's worst price (the venue takes
     * limit orders only). Prices are cents between 0.01 and 0.99.
     */
    async createOrder(params) {
      const named = sideOfOutcomeId(params.outcomeId);
      if (!named || named.symbol !== params.marketId) {
        throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
          detail: { marketId: params.marketId, outcomeId: params.outcomeId },
        });
      }
      if (params.price === undefined)
        throw invalidArgument('params.price', `${venueId} takes limit orders only: give the price (the worst price for a market order)`);
      const cents = Math.round(params.price * 100);
      if (Math.abs(params.price * 100 - cents) > 1e-9 || cents < 1 || cents > 99) {
        throw invalidArgument('params.price', `${venueId} prices are whole cents between 0.01 and 0.99, got ${params.price}`);
      }
      if (!Number.isInteger(params.amount) || params.amount < 1) throw invalidArgument('params.amount', `${venueId} contracts trade in whole numbers`);
      return normalizeOrder(
        await api.placeOrder({
          symbol: params.marketId,
          orderType: 'limit',
          side: params.side,
          quantity: String(params.amount),
          price: (cents / 100).toFixed(2),
          outcome: named.side,
          timeInForce: params.type === 'limit' ? 'good-til-cancel' : 'immediate-or-cancel',
        }),
      );
    },

    async cancelOrder(orderId) {
      if (!/^\d{1,18}$/.test(orderId)) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 40)}`, { detail: { orderId } });
      return normalizeOrder(await api.cancelOrder(Number(orderId)));
    },
  });
}

const timeFrames: Record<string, string> = { '1m': '1m', '5m': '5m', '15m': '15m', '30m': '30m', '1h': '1hr', '6h': '6hr', '1d': '1day' };

/** Events by ticker, or the listing's pages (500 a page) of the wanted statuses; `query` is the venue's title search. */
async function selectEvents(api: GeminiApi, params: EventFetchParams, eventOf: (ticker: string) => Promise<Event | undefined>): Promise<Event[]> {
  if (params.slug !== undefined && params.eventId === undefined) {
    throw notSupported('fetchEvents', 'Gemini looks events up by ticker only; give eventId (the ticker)');
  }
  if (params.eventId !== undefined) {
    const event = await eventOf(params.eventId);
    return event ? [event] : [];
  }
  if (params.series !== undefined) return [];
  const query = {
    ...statusQuery(params.status ?? 'active'),
    ...(params.category === undefined ? {} : { category: params.category }),
    ...(params.query === undefined ? {} : { search: params.query }),
  };
  const raws = await collectOffsetPages((offset, limit) => api.events({ ...query, limit, offset }).then((page) => page.data), {
    offset: params.offset,
    limit: params.limit ?? defaultLimit,
    pageSize,
    maxPages: 10,
  });
  return raws.map(normalizeEvent);
}

function statusQuery(status: StatusFilter): { status?: string[] } {
  if (status === 'all') return {};
  return { status: status === 'active' ? ['active'] : ['closed', 'settled'] };
}

/** Every page of an order list (100 a page, as the venue allows), up to 20 pages. */
async function orderPages(read: GeminiApi['activeOrders'], fields: Record<string, unknown>): Promise<RawOrder[]> {
  return collectOffsetPages((offset, limit) => read({ ...fields, limit, offset }).then((page) => page.orders), { pageSize: 100, maxPages: 20 });
}

function history(orders: RawOrder[], params: OrderHistoryParams) {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  return orders
    .map(normalizeOrder)
    .filter((order) => order.timestamp >= since && order.timestamp <= until)
    .slice(0, params.limit ?? defaultLimit);
}
