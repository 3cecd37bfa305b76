import { eventListPredicate, invalidArgument, marketListPredicate, reportDrift } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, PredgateError } from '@predgate/core';
import type { KeyedAccount } from '../api/schemas.js';
import { publicKeyBytes } from '../auth/solana.js';
import { venueId } from '../venue.js';
import type { BaoziContext } from '../context.js';
import { notAMarket } from '../errors.js';
import { decodeMarket } from '../normalize/accounts.js';
import { discriminatorFilters, normalizeEvent, normalizeMarket, parseOutcomeId } from '../normalize/markets.js';
import type { RawMarket } from '../normalize/markets.js';

/*
 * Markets read straight from the program's accounts: each market is an event
 * of its own; prices are pool shares.
 */

const defaultLimit = 100;
/** getProgramAccounts hands back every market ever made: one answer serves the lists for this long. */
const listCacheMs = 30_000;

type Lookup = 'event' | 'market';

export async function fetchEvents(ctx: BaoziContext, params: EventFetchParams = {}): Promise<Event[]> {
  const predicate = eventListPredicate(params);
  return (await select(ctx, params, 'event', predicate && ((raw) => predicate(normalizeEvent(raw, ctx.now()))))).map((raw) => normalizeEvent(raw, ctx.now()));
}

export async function fetchMarkets(ctx: BaoziContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const predicate = marketListPredicate(params);
  return (await select(ctx, params, 'market', predicate && ((raw) => predicate(normalizeMarket(raw, ctx.now()))))).map((raw) =>
    normalizeMarket(raw, ctx.now()),
  );
}

/** One market by its account address; undefined when no account lives there. */
export async function lookup(ctx: BaoziContext, pubkey: string, kind: Lookup): Promise<RawMarket | undefined> {
  if (!publicKeyBytes(pubkey)) {
    throw invalidArgument(kind === 'event' ? 'params.eventId' : 'params.marketId', `${venueId} ids are market account addresses (base58 public keys)`);
  }
  const account = await ctx.rpc.accountInfo(pubkey);
  if (account === null) return undefined;
  const decoded = decodeMarket(pubkey, account);
  if ('market' in decoded) return decoded.market;
  if (decoded.reason === 'layout') throw decoded.error;
  throw notAMarket(pubkey, kind, decoded.message);
}

/** Every boolean and race market, one pair of getProgramAccounts calls per 30 seconds. */
function allMarkets(ctx: BaoziContext): Promise<RawMarket[]> {
  const cached = ctx.listCache;
  if (cached && ctx.now() - cached.at < listCacheMs) return cached.markets;
  const markets = Promise.all([
    ctx.rpc.programAccounts([{ memcmp: { offset: 0, bytes: discriminatorFilters.market } }]),
    ctx.rpc.programAccounts([{ memcmp: { offset: 0, bytes: discriminatorFilters.raceMarket } }]),
  ]).then(([booleans, races]) => decodeListed(ctx, [...booleans, ...races]));
  ctx.listCache = { at: ctx.now(), markets };
  markets.catch(() => {
    if (ctx.listCache?.markets === markets) ctx.listCache = undefined;
  });
  return markets;
}

/**
 * Decodes listed accounts; any that is not a SOL market of a known type is
 * skipped and counted, never read as one. A market account that does not
 * decode is left out as drift (its address and the field where it failed),
 * the rest served.
 */
function decodeListed(ctx: BaoziContext, accounts: KeyedAccount[]): RawMarket[] {
  const skipped: Record<string, number> = {};
  const undecodable: PredgateError[] = [];
  const markets = accounts.flatMap(({ pubkey, account }) => {
    const decoded = decodeMarket(pubkey, account);
    if ('market' in decoded) return [decoded.market];
    skipped[decoded.reason] = (skipped[decoded.reason] ?? 0) + 1;
    if (decoded.reason === 'layout') undecodable.push(decoded.error);
    return [];
  });
  if (Object.keys(skipped).length > 0) ctx.logger.warn({ skipped }, 'baozi accounts skipped: not boolean or race SOL markets');
  // Every account failing to decode is a layout change, not a few odd accounts.
  if (markets.length === 0 && undecodable.length > 0 && undecodable.length === accounts.length) throw undecodable[0];
  undecodable.forEach(reportDrift);
  return markets;
}

async function select(
  ctx: BaoziContext,
  params: EventFetchParams | MarketFetchParams,
  kind: Lookup,
  predicate: ((raw: RawMarket) => boolean) | undefined,
): Promise<RawMarket[]> {
  const named = namedMarket(params);
  const status = statusKeep(params, ctx.now());
  if (named !== undefined) {
    const raw = await lookup(ctx, named, kind);
    // A lookup finds the market whatever its state, unless the caller asked for one.
    return raw && (params.status === undefined || status(raw)) && (!predicate || predicate(raw)) ? [raw] : [];
  }
  const keep = (raw: RawMarket) => status(raw) && (!predicate || predicate(raw));
  if (params.sort === 'newest') {
    throw invalidArgument('params.sort', `${venueId} markets carry no creation time on chain: sort by volume or liquidity`);
  }
  const offset = params.offset ?? 0;
  const limit = params.limit ?? defaultLimit;
  // volume24h is unknown (0) everywhere: the default order is by the pot, the largest first; the address breaks ties.
  const markets = (await allMarkets(ctx)).filter(keep);
  const pots = new Map(markets.map((raw) => [raw, potOf(raw)]));
  return markets
    .sort((a, b) => (pots.get(b)! > pots.get(a)! ? 1 : pots.get(b)! < pots.get(a)! ? -1 : a.pubkey < b.pubkey ? -1 : 1))
    .slice(offset, offset + limit);
}

/** A list call naming one market (by event, market, outcome or slug) is a lookup of its account. */
function namedMarket(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  if (market.outcomeId !== undefined) {
    const parsed = parseOutcomeId(market.outcomeId);
    if (!parsed) throw invalidArgument('params.outcomeId', `${venueId} outcome ids are <market address>-YES, -NO or -<index>`);
    return parsed.market;
  }
  return market.marketId ?? params.eventId ?? params.slug;
}

function statusKeep(params: EventFetchParams | MarketFetchParams, nowMs: number): (raw: RawMarket) => boolean {
  const wanted = params.status ?? 'active';
  if (wanted === 'all') return () => true;
  const active = (raw: RawMarket) => raw.status === 0 && Number(raw.closingTime) * 1000 > nowMs;
  return wanted === 'active' ? active : (raw) => !active(raw);
}

function potOf(raw: RawMarket): bigint {
  return raw.kind === 'boolean' ? raw.yesPool + raw.noPool : raw.totalPool;
}
