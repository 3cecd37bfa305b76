import { randomUUID } from 'node:crypto';
import {
  PredgateError,
  bucketCandles,
  checkPayload,
  collectCursorPages,
  complement,
  defineAdapter,
  eventListPredicate,
  invalidArgument,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  percentToFraction,
  resolutionMs,
  toEpochMs,
} from '@predgate/core';
import type { AdapterContext, ErrorCode, EventFetchParams, Market, MarketFetchParams, Order, VenueFailure } from '@predgate/core';
import type { Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hunchApi, paymentChallenge } from './api.js';
import type { PaymentRequirement, RawHistoryPoint, TradeBody } from './api.js';
import type { HunchConfig } from './index.js';
import { eventOf, normalizeMarket, splitOutcomeId, venueId } from './normalize.js';
import { paymentHeader, requirementFor } from './x402.js';

/** Unpublished beyond quotes (30 a minute per IP) and trades (10 a minute per wallet); pmxt spaces calls 500 ms apart. */
const rateLimit = { requests: 2, intervalMs: 1_000 };
const pageSize = 200;
/** The venue lists every market it has in a few pages; this bounds a list call. */
const maxPages = 10;
const defaultLimit = 20;
/** Bets above this need a quote first, whose id and minimum shares go into the bet. */
const simpleTierMaxUsd = 10;
const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const noResting = 'Hunch is parimutuel: a bet is final when placed, there are no resting orders';

/** The venue's stable `error` codes, by the unified code they mean. */
const codes: Record<string, ErrorCode> = {
  market_not_found: 'MARKET_NOT_FOUND',
  invalid_request: 'BAD_REQUEST',
  invalid_wallet: 'VALIDATION_ERROR',
  invalid_side: 'INVALID_ORDER',
  size_below_min: 'INVALID_ORDER',
  size_above_simple_tier: 'INVALID_ORDER',
  quote_required: 'INVALID_ORDER',
  quote_expired: 'INVALID_ORDER',
  quote_mismatch: 'INVALID_ORDER',
  slippage_exceeded: 'INVALID_ORDER',
  pool_impact_exceeded: 'INVALID_ORDER',
  unsupported_market: 'INVALID_ORDER',
  market_closed: 'INVALID_ORDER',
  market_resolved: 'INVALID_ORDER',
  insufficient_balance: 'INSUFFICIENT_FUNDS',
  idem_conflict: 'BAD_REQUEST',
  payment_invalid: 'AUTHENTICATION_ERROR',
  rate_limited: 'RATE_LIMIT_EXCEEDED',
  trading_paused: 'EXCHANGE_NOT_AVAILABLE',
  platform_paused: 'EXCHANGE_NOT_AVAILABLE',
  internal_error: 'EXCHANGE_NOT_AVAILABLE',
};

/** A 402 from the trade endpoint is the payment challenge, carried to the bet flow in `detail.challenge`. */
function mapError(failure: VenueFailure) {
  const body = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as Record<string, unknown>;
  if (failure.status === 402 && 'accepts' in body) {
    return new PredgateError('AUTHENTICATION_ERROR', `${venueId}: the bet was not paid`, { exchange: venueId, detail: { challenge: body } });
  }
  const venueCode = typeof body.error === 'string' ? body.error : undefined;
  const message = typeof body.message === 'string' ? body.message : undefined;
  // With the agent platform switched off every route is a 404 without the venue's error body.
  const code =
    (venueCode && codes[venueCode]) ?? (failure.status === 404 && failure.path.startsWith('/api/agent/v1/markets/') ? 'MARKET_NOT_FOUND' : undefined);
  return mapVenueFailure(failure, {
    ...(code ? { code } : {}),
    ...(message ? { message: `${venueId}: ${message}` } : {}),
    detail: { ...(venueCode ? { venueCode } : {}), ...(message ? { venueMessage: message } : {}) },
  });
}

/**
 * Hunch: parimutuel markets on Base. There is no event tier (each market is
 * an event), no order book (prices are the pools' implied odds, so
 * `fetchOrderBook` is absent rather than made up), and no resting orders.
 */
export function createHunchAdapter(context: AdapterContext, config: HunchConfig) {
  const api = hunchApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl);

  /** Every market the venue lists for a status, in the venue's order. */
  const listAll = (status: 'open' | 'all') =>
    collectCursorPages(
      (cursor) => api.markets({ status, limit: pageSize, ...(cursor ? { cursor } : {}) }).then((page) => ({ items: page.markets, next: page.nextCursor })),
      { maxPages },
    );

  /** One market by id or slug, with live odds from its research (N-way rungs are priced only there); unknown is undefined. */
  const lookup = async (idOrSlug: string): Promise<Market | undefined> => {
    try {
      const raw = await api.market(idOrSlug);
      if (!raw.outcomes) return normalizeMarket(raw);
      const research = await api.research(raw.id);
      return normalizeMarket(raw, research);
    } catch (error) {
      if (isPredgateError(error) && error.code === 'MARKET_NOT_FOUND') return undefined;
      throw error;
    }
  };

  const selectMarkets = async (params: EventFetchParams | MarketFetchParams, keep: ((market: Market) => boolean) | undefined): Promise<Market[]> => {
    const named = namedMarket(params);
    if (named !== undefined) {
      const market = await lookup(named);
      return market && (!keep || keep(market)) ? [market] : [];
    }
    const status = params.status ?? 'active';
    const markets = (await listAll(status === 'active' ? 'open' : 'all')).map((raw) => normalizeMarket(raw));
    const wanted = markets.filter((market) => (status === 'all' || market.status === status) && (!keep || keep(market)));
    const offset = params.offset ?? 0;
    return sorted(wanted, params.sort).slice(offset, offset + (params.limit ?? defaultLimit));
  };

  /** The research of the market an outcome id names, and the side the id names. */
  const researchOf = async (outcomeId: string) => {
    const parts = splitOutcomeId(outcomeId);
    if (!parts) throw invalidArgument('outcomeId', `${venueId} outcome ids are <market>:<side>, such as hunch-10m:yes`);
    const research = await api.research(parts.marketId);
    const binary = !research.market.outcomes;
    if (binary ? parts.side !== 'yes' && parts.side !== 'no' : !research.market.outcomes!.some((rung) => rung.key === parts.side)) {
      throw new PredgateError('OUTCOME_NOT_FOUND', `${venueId} market ${parts.marketId} has no outcome "${parts.side.slice(0, 80)}"`, {
        exchange: venueId,
        detail: { outcomeId: outcomeId.slice(0, 200) },
      });
    }
    return { research, side: parts.side, binary };
  };

  /** Each bet on the outcome, as the research's odds history records it: the side's implied odds after the bet, and its stake. */
  const fillsOf = async (outcomeId: string) => {
    const { research, side, binary } = await researchOf(outcomeId);
    const points = (research.oddsHistory ?? []).filter((point) => (binary ? !point.outcomeKey : point.outcomeKey === side));
    return points.map((point: RawHistoryPoint) => {
      const timestamp = toEpochMs(point.at);
      if (timestamp === undefined) throw unreadable('oddsHistory.at');
      const yes = percentToFraction(point.yesPct)!;
      return { timestamp, price: binary && side === 'no' ? complement(yes) : yes, amount: point.sizeUsd, at: point.at };
    });
  };

  const accountOf = (): PrivateKeyAccount => {
    const key = context.credentials?.privateKey;
    if (!key) throw missingCredentials(venueId, ['privateKey']);
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) {
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: "privateKey" must be 32 bytes of hex`, { detail: { required: ['privateKey'] } });
    }
    try {
      return privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as Hex);
    } catch {
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: "privateKey" is not a valid secp256k1 key`, { detail: { required: ['privateKey'] } });
    }
  };

  /** The wallet account reads are about: the address given, else `walletAddress`, else the key's. */
  const walletOf = (address: string | undefined): string => {
    const wallet = address ?? context.credentials?.walletAddress ?? (context.credentials?.privateKey ? accountOf().address : undefined);
    if (!wallet) throw missingCredentials(venueId, ['walletAddress']);
    if (!evmAddress.test(wallet)) throw invalidArgument('address', `${venueId} wallets are Base addresses (0x and 40 hex digits)`);
    return wallet;
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Hunch',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['privateKey', 'walletAddress'] },
      unsupported: {
        fetchOrderBook: 'Hunch is parimutuel: prices are the pools’ implied odds, there is no order book',
        fetchOrderBooks: 'Hunch is parimutuel: prices are the pools’ implied odds, there is no order book',
        fetchSeries: 'Hunch has no series',
        buildOrder: 'a Hunch bet is paid in the request that places it (x402), so it cannot be built ahead and sent later',
        submitOrder: 'a Hunch bet is paid in the request that places it (x402), so it cannot be built ahead and sent later',
        cancelOrder: `${noResting}, and bets cannot be cancelled`,
        fetchOpenOrders: noResting,
        fetchOrder: `${noResting}; bets are listed by fetchPositions`,
        fetchMyTrades: 'Hunch lists a wallet’s bets only as positions (fetchPositions)',
      },
    },

    async fetchEvents(params = {}) {
      const predicate = eventListPredicate(params);
      const markets = await selectMarkets(params, predicate ? (market) => predicate(eventOf(market)) : undefined);
      return markets.map(eventOf);
    },

    async fetchMarkets(params = {}) {
      return selectMarkets(params, marketListPredicate(params));
    },

    async fetchEventMetadata(eventTicker) {
      const research = await api.research(eventTicker);
      return { resolutionRules: research.resolutionRules ?? null };
    },

    async fetchTrades(outcomeId, params = {}) {
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      const trades = (await fillsOf(outcomeId))
        .filter((fill) => fill.timestamp >= start && fill.timestamp <= end)
        .map((fill, index) => ({
          id: `${fill.at}-${index}`,
          timestamp: fill.timestamp,
          price: fill.price,
          amount: fill.amount,
          side: 'buy' as const,
          outcomeId,
        }));
      return params.limit === undefined ? trades : trades.slice(-params.limit);
    },

    async fetchOHLCV(outcomeId, params) {
      const stepMs = resolutionMs(params.resolution);
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      const fills = (await fillsOf(outcomeId)).filter((fill) => fill.timestamp >= start && fill.timestamp <= end);
      const candles = bucketCandles(
        fills.map((fill) => ({ timestamp: fill.timestamp, price: fill.price, volume: fill.amount })),
        stepMs,
      );
      return params.limit === undefined ? candles : candles.slice(-params.limit);
    },

    async fetchPositions(address) {
      const positions = await api.positions(walletOf(address));
      return positions.map((row) => ({
        marketId: row.marketId,
        outcomeId: `${row.marketId}:${row.side}`,
        outcomeLabel: row.outcomeLabel ?? row.side,
        size: row.shares,
        entryPrice: percentToFraction(row.avgEntryCents)!,
        currentPrice: percentToFraction(row.currentCents ?? row.avgEntryCents)!,
        unrealizedPnL: row.pnlUsd ?? (((row.currentCents ?? row.avgEntryCents) - row.avgEntryCents) * row.shares) / 100,
      }));
    },

    async fetchBalance() {
      const wallet = walletOf(undefined);
      const { usdcBalanceUsd } = await api.readiness(wallet);
      // Null means the venue could not read the wallet: unknown is not zero.
      if (usdcBalanceUsd === null) throw unreadable('readiness.usdcBalanceUsd');
      return [{ currency: 'USDC', total: usdcBalanceUsd, available: usdcBalanceUsd, locked: 0 }];
    },

    async createOrder(params) {
      if (params.side !== 'buy') throw invalidOrder('Hunch bets are buys only: a position is held until the market resolves');
      if (params.type !== 'market') throw invalidOrder('Hunch bets are market orders into the pool: there are no limit orders');
      const parts = splitOutcomeId(params.outcomeId);
      if (!parts || parts.marketId !== params.marketId) {
        throw invalidArgument(
          'params.outcomeId',
          `${venueId} outcome ids are <market>:<side> of the market given, such as ${params.marketId.slice(0, 80)}:yes`,
        );
      }
      const atomic = Math.round(params.amount * 1e6);
      if (atomic < 1_000_000 || atomic !== params.amount * 1e6) {
        throw invalidOrder('a Hunch bet is an amount of USD (the order amount), at least 1 and with at most 6 decimals');
      }
      const account = accountOf();
      const bet: TradeBody = {
        marketId: parts.marketId,
        side: parts.side,
        sizeUsd: params.amount,
        idemKey: randomUUID(),
        walletAddress: account.address,
        simulate: false,
      };
      if (params.amount > simpleTierMaxUsd) {
        const quote = await api.quote(parts.marketId, parts.side, params.amount, account.address);
        Object.assign(bet, { quoteId: quote.quoteId, minSharesOut: quote.suggestedMinSharesOut });
      }
      const body = JSON.stringify(bet);
      let answer;
      try {
        answer = await api.trade(body);
      } catch (error) {
        const challenge = isPredgateError(error) ? error.detail?.challenge : undefined;
        if (challenge === undefined) throw error;
        const { accepts } = checkPayload<{ accepts: PaymentRequirement[] }>(paymentChallenge, challenge, { venue: venueId, endpoint: 'POST /trade (402)' });
        const payment = await paymentHeader(account, requirementFor(accepts, BigInt(atomic)), context.clock.now());
        answer = await api.trade(body, payment);
      }
      const { receipt } = answer;
      const price = receipt.position?.avgPriceCents;
      return {
        id: receipt.tradeId,
        marketId: parts.marketId,
        outcomeId: params.outcomeId,
        side: 'buy',
        type: 'market',
        amount: params.amount,
        ...(price === null || price === undefined ? {} : { price: percentToFraction(price)! }),
        status: 'filled',
        filled: params.amount,
        remaining: 0,
        timestamp: toEpochMs(receipt.recordedAt) ?? context.clock.now(),
      } satisfies Order;
    },
  });
}

/** A list call naming one market (by event, market, outcome or slug) is a lookup. */
function namedMarket(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  if (market.outcomeId !== undefined) return splitOutcomeId(market.outcomeId)?.marketId ?? market.outcomeId;
  return market.marketId ?? params.eventId ?? params.slug;
}

/** The venue has no sort: the whole list is ordered here, 24h volume first by default, as the catalog orders it. */
function sorted(markets: Market[], sort: EventFetchParams['sort']): Market[] {
  if (sort === 'newest') return markets;
  const key = sort === 'liquidity' ? (market: Market) => market.liquidity : (market: Market) => market.volume24h;
  return [...markets].sort((a, b) => key(b) - key(a));
}

function invalidOrder(message: string) {
  return new PredgateError('INVALID_ORDER', `${venueId}: ${message}`, { exchange: venueId });
}

function unreadable(field: string) {
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId} answered in a shape Predgate does not understand: ${field} is missing or unreadable`, {
    exchange: venueId,
    detail: { field, drift: true },
  });
}
