import { randomInt } from 'node:crypto';
import {
  PredgateError,
  bookToDepth,
  createFeed,
  defineAdapter,
  feedError,
  eventListPredicate,
  invalidArgument,
  invertBinaryBook,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  normalizeOrderBook,
  notSupported,
  roundTo,
  toEpochMs,
  toNumber,
  venueMessageOf,
} from '@predgate/core';
import type {
  AdapterContext,
  ErrorCode,
  Event,
  EventFetchParams,
  Market,
  MyTradesParams,
  Order,
  OrderBook,
  OrderHistoryParams,
  UserTrade,
  VenueFailure,
} from '@predgate/core';
import type { Hex } from 'viem';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { limitlessApi } from './api.js';
import { ammPosition, clobPositions, historyTrade, isTrade, normalizeUserOrder } from './account.js';
import type { OutcomeIds } from './account.js';
import type { LimitlessApi, RawHistoryEntry, RawMarket, Signed } from './api.js';
import { authHeaders } from './auth/hmac.js';
import { signOrder } from './auth/order-signing.js';
import type { LimitlessConfig } from './index.js';
import { ammOutcomeId, isAmm, normalizeEvent, venueId } from './normalize.js';
import { LimitlessStream } from './streams/market-stream.js';

/** Documented per token: at most 2 concurrent requests, at least 300 ms apart. */
const rateLimit = { requests: 3, intervalMs: 1_000, burst: 1 };
const pagePerRequest = 25;
const defaultLimit = 25;
/** Raw share and USDC amounts carry 6 decimals. */
const unit = 1e6;
const zeroAddress = '0x0000000000000000000000000000000000000000';
const intervals: Record<string, string> = { '1h': '1h', '6h': '6h', '1d': '1d', '1w': '1w' };
/** Order ids remembered with their market (the venue looks orders up per market only). */
const rememberedOrders = 2_000;
/** The activity log: entries a page, and pages one call reads at most. */
const historyPage = 25;
const historyPages = 20;
const defaultTradeLimit = 100;
/** `<market slug>:<order id>`: an order named with its market. */
const qualifiedOrderId = /^([a-z0-9][a-z0-9-]{0,299}):([^:]{1,200})$/i;

const rejections: Array<[RegExp, ErrorCode]> = [
  [/api key|proxy|signature type/i, 'AUTHENTICATION_ERROR'],
  [/insufficient|allowance|balance/i, 'INSUFFICIENT_FUNDS'],
  [/tick size|price|size|post.?only|cross/i, 'INVALID_ORDER'],
];

/** NestJS bodies: `message` (a string, or an array of them on validation errors), then `error`, then `errorMsg`. */
function messageOf(body: unknown): string {
  const { message, errorMsg } = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; errorMsg?: unknown };
  if (Array.isArray(message)) return message.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('; ');
  if (typeof message === 'string') return message;
  return typeof errorMsg === 'string' ? errorMsg : (venueMessageOf(body) ?? '');
}

function mapError(failure: VenueFailure) {
  const message = messageOf(failure.body);
  if (failure.status === 404 && failure.path.startsWith('/markets/')) {
    return mapVenueFailure(failure, { code: /orderbook$/.test(failure.path) ? 'NOT_FOUND' : 'MARKET_NOT_FOUND' });
  }
  // A cancel of an order that is gone (filled, cancelled, never there, or another account's).
  if (failure.method === 'DELETE' && failure.path.startsWith('/orders/') && (failure.status === 404 || /not found|does not exist/i.test(message))) {
    return mapVenueFailure(failure, { code: 'ORDER_NOT_FOUND', message: `${venueId}: ${(message || 'order not found').slice(0, 300)}` });
  }
  if (failure.method === 'DELETE' && failure.path.startsWith('/orders/') && failure.status === 400) {
    return mapVenueFailure(failure, { code: 'INVALID_ORDER', message: `${venueId}: ${(message || 'the order cannot be cancelled').slice(0, 300)}` });
  }
  if (failure.status === 400 || failure.status === 409 || failure.status === 425) {
    const code = rejections.find(([pattern]) => pattern.test(message))?.[1] ?? (failure.status === 400 ? undefined : 'INVALID_ORDER');
    return code
      ? mapVenueFailure(failure, { code, message: `${venueId}: ${message.slice(0, 300)}`, detail: { venueMessage: message.slice(0, 300) } })
      : undefined;
  }
  return undefined;
}

/**
 * Limitless Exchange: CLOB markets (single, or children of a NegRisk group)
 * with one YES-quoted book each, and legacy AMM markets, listed with their
 * prices but without books. Authenticated calls use a scoped token (HMAC) or
 * a legacy key; orders are EIP-712 signed on Base with `privateKey`.
 */
export function createLimitlessAdapter(context: AdapterContext, config: LimitlessConfig) {
  const api = limitlessApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl);
  const stream = new LimitlessStream({
    url: config.ws,
    venue: venueId,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  /** Outcome (token) id → its market's slug and side, from every market read: books are keyed by slug. */
  const bookOfToken = new Map<string, { slug: string; side: 'yes' | 'no' }>();
  /** Market slug → its outcome ids, YES then NO: positions and the activity log name outcomes by index only. */
  const outcomesOfMarket = new Map<string, OutcomeIds>();
  const remember = <T extends Market>(markets: T[]) => {
    for (const market of markets) {
      market.outcomes.forEach((outcome, index) => bookOfToken.set(outcome.outcomeId, { slug: market.marketId, side: index === 0 ? 'yes' : 'no' }));
      if (market.outcomes.length === 2) outcomesOfMarket.set(market.marketId, [market.outcomes[0]!.outcomeId, market.outcomes[1]!.outcomeId]);
    }
    return markets;
  };
  /** Order id → market slug, from every order this instance placed or listed (an instance serves one set of credentials). */
  const marketOfOrder = new Map<string, string>();
  const rememberOrders = <T extends { id: string; marketId: string }>(orders: T[]) => {
    for (const order of orders) {
      marketOfOrder.delete(order.id);
      marketOfOrder.set(order.id, order.marketId);
      if (marketOfOrder.size > rememberedOrders) marketOfOrder.delete(marketOfOrder.keys().next().value!);
    }
    return orders;
  };
  const rememberEvents = (events: Event[]) => {
    for (const event of events) remember(event.markets);
    return events;
  };

  const sign: Signed = (method, path, body) => {
    const apiKey = context.credentials?.apiKey;
    if (!apiKey) throw missingCredentials(venueId, ['apiKey']);
    return authHeaders({ apiKey, apiSecret: context.credentials?.apiSecret }, method, path, body, context.clock.now());
  };

  const marketBySlug = async (slug: string): Promise<RawMarket | undefined> => {
    try {
      return await api.market(slug);
    } catch (error) {
      if (isPredgateError(error) && error.code === 'MARKET_NOT_FOUND') return undefined;
      throw error;
    }
  };

  /** The slug and side of a book request: a slug with `yes`/`no`, or an outcome id (resolved through the markets read). */
  const bookTarget = async (id: string, wanted: string | undefined): Promise<{ slug: string; side: 'yes' | 'no' }> => {
    const outcome = wanted !== undefined && wanted !== 'yes' && wanted !== 'no' ? wanted : /^\d{20,}$/.test(id) || id.includes(':') ? id : undefined;
    if (outcome !== undefined) {
      const amm = /^(.+):(yes|no)$/.exec(outcome);
      if (amm) throw notSupported('fetchOrderBook', `${amm[1]} is an AMM market: its prices come from a pool, there is no order book`);
      let target = bookOfToken.get(outcome);
      // A token not seen yet: the active listing is searched for it, a few pages deep.
      for (let page = 1; page <= 8 && !target; page += 1) {
        const { data } = await api.active(page, pagePerRequest);
        rememberEvents(data.map(normalizeEvent));
        target = bookOfToken.get(outcome);
        if (data.length < pagePerRequest) break;
      }
      if (!target) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcome.slice(0, 100)}`, { detail: { outcomeId: outcome } });
      return target;
    }
    return { slug: id, side: wanted === 'no' ? 'no' : 'yes' };
  };

  const marketMarkets = async (slug: string): Promise<Market[]> => {
    const raw = await marketBySlug(slug);
    if (!raw) return [];
    return remember(normalizeEvent(raw).markets.filter((market) => market.marketId === slug || raw.slug === slug));
  };

  const tradingKey = (): Hex => {
    const key = context.credentials?.privateKey;
    if (!key || !context.credentials?.apiKey) throw missingCredentials(venueId, ['apiKey', 'privateKey']);
    const hex = (key.startsWith('0x') ? key : `0x${key}`) as Hex;
    if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: privateKey must be 32 bytes of hex`, { detail: { member: 'privateKey' } });
    return hex;
  };

  const outcomeIdsOf = async (slug: string): Promise<OutcomeIds> => {
    const known = outcomesOfMarket.get(slug);
    if (known) return known;
    const answer = await marketBySlug(slug);
    // A child of a group is expected to answer as itself; should the group answer instead, the child is picked from it.
    const raw = answer?.markets?.find((child) => child.slug === slug) ?? answer;
    if (raw && raw.tokens) outcomesOfMarket.set(slug, [raw.tokens.yes, raw.tokens.no]);
    else if (raw && isAmm(raw)) outcomesOfMarket.set(slug, [ammOutcomeId(slug, 'yes'), ammOutcomeId(slug, 'no')]);
    const ids = outcomesOfMarket.get(slug);
    if (!ids) throw new PredgateError('MARKET_NOT_FOUND', `${venueId} has no binary market ${slug.slice(0, 100)}`, { detail: { marketId: slug } });
    return ids;
  };

  /** The market of an order: named with it (`<slug>:<id>`), or remembered from an order this instance placed or listed. */
  const locateOrder = (orderId: string): { slug: string; id: string } => {
    const qualified = qualifiedOrderId.exec(orderId);
    if (qualified) return { slug: qualified[1]!, id: qualified[2]! };
    const slug = marketOfOrder.get(orderId);
    if (slug) return { slug, id: orderId };
    throw invalidArgument(
      'orderId',
      `${venueId} finds orders per market only: give the order as "<market slug>:<order id>", or list the market's orders first`,
      { orderId: orderId.slice(0, 200) },
    );
  };

  const orderIn = async (orderId: string, statuses: string[]): Promise<Order> => {
    const { slug, id } = locateOrder(orderId);
    const raw = (await api.userOrders(slug, statuses, sign)).find((order) => order.id === id);
    if (!raw) {
      throw new PredgateError(
        'ORDER_NOT_FOUND',
        `Order not found among the ${statuses.join(' and ').toLowerCase()} orders of ${slug.slice(0, 100)}: ${id.slice(0, 100)}`,
        {
          detail: { orderId: id, marketId: slug },
        },
      );
    }
    return normalizeUserOrder(raw, slug);
  };

  /** The caller's orders of one market in the given statuses; the venue has no all-markets list and no cursor. */
  const ordersOf = async (method: string, statuses: string[], params: OrderHistoryParams = {}): Promise<Order[]> => {
    if (params.marketId === undefined) throw invalidArgument('params.marketId', `${venueId} lists orders per market: give the market slug`);
    if (params.cursor !== undefined) throw invalidArgument('params.cursor', `${method}: ${venueId} pages no order lists (use limit)`);
    const orders = rememberOrders(
      (await api.userOrders(params.marketId, statuses, sign, params.limit)).map((raw) => normalizeUserOrder(raw, params.marketId!)),
    );
    const since = params.since?.getTime() ?? -Infinity;
    const until = params.until?.getTime() ?? Infinity;
    const kept = orders.filter((order) => order.timestamp >= since && order.timestamp <= until);
    return params.limit === undefined ? kept : kept.slice(0, params.limit);
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Limitless',
      hosts: { rest: config.baseUrl, ws: config.ws },
      rateLimit: { requests: rateLimit.requests, intervalMs: rateLimit.intervalMs },
      credentials: { required: [], optional: ['apiKey', 'apiSecret', 'privateKey', 'funderAddress'] },
      unsupported: {
        fetchTrades: 'Limitless has no public trade tape endpoint',
        watchTrades: 'Limitless streams no public trades (its websocket pushes books, AMM prices and the account’s own fills)',
        fetchSeries: 'Limitless has no series',
        fetchBalance:
          'Limitless has no balance endpoint: USDC sits in the wallet on Base (an on-chain balanceOf read); the API reports only collateral locked per market',
      },
    },
    // The venue looks orders up per market only: one order is found in its market's list.
    emulated: ['fetchOrder'],

    async fetchEvents(params = {}) {
      const events = rememberEvents(await selectEvents(api, params, marketBySlug));
      // The venue's search is semantic ("bitcoin" finds "BTC up or down"): its hits are kept, not re-filtered by the words.
      const keep = eventListPredicate({ ...params, query: undefined });
      return keep ? events.filter(keep) : events;
    },

    async fetchMarkets(params = {}) {
      const keep = marketListPredicate({ ...params, query: undefined });
      const slug = params.marketId ?? params.slug;
      if (slug !== undefined) return (await marketMarkets(slug)).filter((market) => market.marketId === slug && (!keep || keep(market)));
      if (params.outcomeId !== undefined) {
        const owner = await bookTarget(params.outcomeId, undefined).then(
          (target) => target.slug,
          () => undefined,
        );
        return owner ? (await marketMarkets(owner)).filter((market) => market.marketId === owner) : [];
      }
      const { filter: _marketFilter, ...listParams } = params;
      const markets = rememberEvents(await selectEvents(api, { ...listParams, limit: undefined, offset: undefined }, marketBySlug)).flatMap(
        (event) => event.markets,
      );
      const offset = params.offset ?? 0;
      return markets.filter((market) => !keep || keep(market)).slice(offset, offset + (params.limit ?? defaultLimit));
    },

    /** One book per market, quoted on YES (pmxt once handed out that book for NO: a false 99% arbitrage); NO is its inversion. */
    async fetchOrderBook(id, limit, params = {}) {
      const { slug, side } = await bookTarget(id, params.outcome ?? params.side);
      const raw = await api.orderbook(slug);
      const level = (entry: { price: number | string; size: number | string }) => ({
        price: toNumber(entry.price)!,
        size: roundTo(toNumber(entry.size)! / unit, 6),
      });
      const yes = normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: context.clock.now() });
      return bookToDepth(side === 'yes' ? yes : invertBinaryBook(yes), limit ?? params.limit);
    },

    /**
     * The live book of an outcome over the venue's websocket (one connection
     * per adapter instance): the id is resolved as `fetchOrderBook` resolves
     * it (a slug is its YES book, a token id its side), and the NO side gets
     * the inversion of the market's YES book.
     */
    watchOrderBook(outcomeId) {
      return createFeed<OrderBook>((emit) => {
        let detach: (() => void) | undefined;
        let stopped = false;
        bookTarget(outcomeId, undefined).then(
          ({ slug, side }) => {
            if (!stopped) detach = stream.attach(slug, side, emit);
          },
          (error: unknown) => {
            if (!stopped) emit.error(feedError(error, venueId));
          },
        );
        return () => {
          stopped = true;
          detach?.();
        };
      });
    },

    close: () => stream.close(),

    /** Price points of a market (hourly), as flat candles; NO is one minus YES. */
    async fetchOHLCV(outcomeId, params) {
      const interval = intervals[params.resolution];
      if (!interval)
        throw invalidArgument(
          'params.resolution',
          `${venueId} price history comes at ${Object.keys(intervals).join(', ')}; "${params.resolution}" is not one of them`,
        );
      const { slug, side } = await bookTarget(outcomeId, undefined);
      const { prices } = await api.historicalPrice(slug, interval);
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      const candles = prices
        .map((point) => {
          const raw = toNumber(point.price)!;
          const yes = raw > 1 ? raw / 100 : raw;
          const price = side === 'yes' ? yes : roundTo(1 - yes, 6);
          const timestamp = toNumber(point.timestamp)!;
          return { timestamp: timestamp < 1e12 ? timestamp * 1000 : timestamp, open: price, high: price, low: price, close: price, volume: 0 };
        })
        .filter((candle) => candle.timestamp >= start && candle.timestamp <= end)
        .sort((a, b) => a.timestamp - b.timestamp);
      return params.limit === undefined ? candles : candles.slice(-params.limit);
    },

    /** The venue lists a caller's orders per market only, so the market is required. */
    async fetchOpenOrders(marketId) {
      if (marketId === undefined) throw invalidArgument('marketId', `${venueId} lists open orders per market: give the market slug`);
      const orders = await api.userOrders(marketId, ['LIVE'], sign);
      return rememberOrders(orders.map((order) => normalizeUserOrder(order, marketId)));
    },

    /** Fully matched orders of a market (the venue keeps no list of cancelled ones). */
    fetchClosedOrders: (params) => ordersOf('fetchClosedOrders', ['MATCHED'], params),

    fetchAllOrders: (params) => ordersOf('fetchAllOrders', ['LIVE', 'MATCHED'], params),

    /** Found in its market's live and matched orders (the venue has no lookup by id). */
    fetchOrder: (orderId) => orderIn(orderId, ['LIVE', 'MATCHED']),

    /** The order is read from its market's live orders first, so it can be returned as it stood, now cancelled. */
    async cancelOrder(orderId) {
      const order = await orderIn(orderId, ['LIVE']);
      await api.cancelOrder(order.id, sign);
      marketOfOrder.delete(order.id);
      return { ...order, status: 'cancelled' as const, remaining: 0 };
    },

    /**
     * The caller's positions (`GET /portfolio/positions`), or a public
     * address's. CLOB entries hold both sides, AMM entries one outcome; a
     * side without shares is no position. Outcome ids come from the market
     * (the payload names sides, not tokens).
     */
    async fetchPositions(address) {
      if (address !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(address)) {
        throw invalidArgument('address', `"address" must be a 0x-prefixed 20-byte address`);
      }
      const raw = address === undefined ? await api.positions(sign) : await api.publicPositions(address);
      const clob = await Promise.all(raw.clob.map(async (entry) => clobPositions(entry, await outcomeIdsOf(entry.market.slug))));
      return [...clob.flat(), ...raw.amm.flatMap((entry, index) => ammPosition(entry, index))];
    },

    /**
     * Fills from the activity log (`GET /portfolio/history`, cursor-paged,
     * newest first): its Buy/Sell entries; splits, merges and conversions
     * are not trades. Filters apply here, so pages are read until `limit`
     * fills are kept (at most 20 pages of 25).
     */
    async fetchMyTrades(params: MyTradesParams = {}) {
      if (params.cursor !== undefined)
        throw invalidArgument('params.cursor', `fetchMyTrades: ${venueId}'s log cursor is internal to the adapter (use since, until, limit)`);
      const limit = params.limit ?? defaultTradeLimit;
      const since = params.since?.getTime() ?? -Infinity;
      const until = params.until?.getTime() ?? Infinity;
      const kept: RawHistoryEntry[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < historyPages && kept.length < limit; page += 1) {
        const { data, nextCursor } = await api.history(cursor, historyPage, sign);
        for (const entry of data.filter(isTrade)) {
          const time = toEpochMs(entry.blockTimestamp)!;
          if (time < since || time > until || (params.marketId !== undefined && entry.market!.slug !== params.marketId)) continue;
          kept.push(entry);
        }
        if (!nextCursor || nextCursor === cursor || data.length === 0) break;
        cursor = nextCursor;
      }
      const trades: UserTrade[] = [];
      for (const entry of kept) trades.push(historyTrade(entry, await outcomeIdsOf(entry.market!.slug)));
      const wanted = params.outcomeId === undefined ? trades : trades.filter((trade) => trade.outcomeId === params.outcomeId);
      return wanted.slice(0, limit);
    },

    /**
     * A limit order rests (GTC); a market order fills or is killed (FOK) at
     * the caller's price. The order is signed with `privateKey` for the
     * market's own exchange contract; the fee rate and owner id come from the
     * signer's public profile.
     */
    async createOrder(params) {
      const key = tradingKey();
      if (params.price === undefined) throw invalidArgument('params.price', `${venueId} orders need a price`);
      const raw = await marketBySlug(params.marketId);
      if (!raw || !raw.tokens || !raw.venue?.exchange) {
        throw new PredgateError(
          raw && isAmm(raw) ? 'NOT_SUPPORTED' : 'MARKET_NOT_FOUND',
          `${params.marketId.slice(0, 100)} is not a CLOB market of ${venueId}`,
          { detail: { marketId: params.marketId } },
        );
      }
      const sideIndex = [raw.tokens.yes, raw.tokens.no].indexOf(params.outcomeId);
      if (sideIndex === -1)
        throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
          detail: { outcomeId: params.outcomeId },
        });
      const account = privateKeyToAccount(key);
      const maker = getAddress(context.credentials?.funderAddress ?? account.address);
      const profile = await api.profile(maker);
      const price = Math.round(params.price * 1000) / 1000;
      const shares = BigInt(Math.round(params.amount * unit));
      const cost = BigInt(Math.round(price * params.amount * unit));
      const buy = params.side === 'buy';
      const order = {
        salt: BigInt(randomInt(1, 2 ** 47)),
        maker,
        signer: account.address,
        taker: zeroAddress as Hex,
        tokenId: BigInt(params.outcomeId),
        makerAmount: buy ? cost : shares,
        takerAmount: buy ? shares : cost,
        expiration: 0n,
        nonce: 0n,
        feeRateBps: BigInt(profile.rank?.feeRateBps ?? 0),
        side: buy ? 0 : 1,
        signatureType: 0,
      };
      const signature = await signOrder(key, raw.venue.exchange, order);
      const body = JSON.stringify({
        order: {
          salt: Number(order.salt),
          maker: order.maker,
          signer: order.signer,
          taker: order.taker,
          tokenId: params.outcomeId,
          makerAmount: Number(order.makerAmount),
          takerAmount: Number(order.takerAmount),
          expiration: '0',
          nonce: 0,
          feeRateBps: Number(order.feeRateBps),
          side: order.side,
          signatureType: 0,
          ...(params.type === 'limit' ? { price } : {}),
          signature,
        },
        orderType: params.type === 'limit' ? 'GTC' : 'FOK',
        marketSlug: params.marketId,
        ownerId: profile.id,
      });
      const placed = await api.placeOrder(body, sign);
      const filled = roundTo((placed.makerMatches ?? []).reduce((sum, match) => sum + toNumber(match.matchedSize)!, 0) / unit, 6);
      rememberOrders([{ id: placed.order.id, marketId: params.marketId }]);
      return {
        id: placed.order.id,
        marketId: params.marketId,
        outcomeId: params.outcomeId,
        side: params.side,
        type: params.type,
        price,
        amount: params.amount,
        status: filled >= params.amount ? 'filled' : 'open',
        filled,
        remaining: Math.max(0, roundTo(params.amount - filled, 6)),
        timestamp: context.clock.now(),
      };
    },
  });
}

/**
 * Events by slug, by semantic search, or from the active listing (the venue
 * lists active markets only; closed ones are reachable by slug or search).
 * The listing pages by 25.
 */
async function selectEvents(api: LimitlessApi, params: EventFetchParams, marketBySlug: (slug: string) => Promise<RawMarket | undefined>): Promise<Event[]> {
  const slug = params.eventId ?? params.slug;
  if (slug !== undefined) {
    const raw = await marketBySlug(slug);
    return raw ? [normalizeEvent(raw)] : [];
  }
  if (params.series !== undefined) return [];
  const status = params.status ?? 'active';
  const limit = params.limit ?? defaultLimit;
  const offset = params.offset ?? 0;
  if (params.query) {
    const { markets } = await api.search(params.query, Math.min(100, offset + limit), 1);
    const closed = (raw: RawMarket) => raw.expired === true || (raw.winningOutcomeIndex !== null && raw.winningOutcomeIndex !== undefined);
    return markets
      .filter((raw) => status === 'all' || (status === 'active') !== closed(raw))
      .map(normalizeEvent)
      .slice(offset, offset + limit);
  }
  if (status === 'closed' || status === 'inactive') {
    throw notSupported('fetchEvents', 'Limitless lists active markets only; closed ones are found by slug or by search (query)');
  }
  const firstPage = Math.floor(offset / pagePerRequest) + 1;
  const raws: RawMarket[] = [];
  for (let page = firstPage; page < firstPage + 40 && raws.length < offset - (firstPage - 1) * pagePerRequest + limit; page += 1) {
    const { data } = await api.active(page, pagePerRequest);
    raws.push(...data);
    if (data.length < pagePerRequest) break;
  }
  const skip = offset - (firstPage - 1) * pagePerRequest;
  return raws.slice(skip, skip + limit).map(normalizeEvent);
}
