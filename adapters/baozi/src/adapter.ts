import { PredgateError, defineAdapter, eventListPredicate, invalidArgument, marketListPredicate, missingCredentials } from '@predgate/core';
import type { AdapterContext, EventFetchParams, MarketFetchParams, Order, Position } from '@predgate/core';
import { mapHttpError, programId, solanaRpc } from './api.js';
import type { KeyedAccount, RawAccount, RawTransaction } from './api.js';
import type { BaoziConfig } from './index.js';
import {
  accountKind,
  betInstructions,
  decodeBooleanMarket,
  decodeRaceMarket,
  decodeRacePosition,
  decodeUserPosition,
  discriminatorFilters,
  discriminatorHex,
  normalizeEvent,
  normalizeMarket,
  outcomeIdsOf,
  parseOutcomeId,
  pricesOf,
  sol,
  statusOf,
  venueId,
} from './normalize.js';
import type { RawMarket, RawRacePosition, RawUserPosition } from './normalize.js';
import {
  LayoutError,
  base58Decode,
  base58Encode,
  findProgramAddress,
  keypairOf,
  publicKeyBytes,
  publicKeyOfSecret,
  signedTransaction,
  u64Seed,
} from './solana.js';

/** The public mainnet RPC allows about 100 requests per 10 seconds per IP (less for getProgramAccounts). */
const rateLimit = { requests: 40, intervalMs: 10_000 };
const defaultLimit = 100;
/** getProgramAccounts hands back every market ever made: one answer serves the lists for this long. */
const listCacheMs = 30_000;
/** The public RPC's cap on keys per getMultipleAccounts. */
const accountsPerCall = 100;
const programKey = publicKeyBytes(programId)!;

const irrevocable = 'Baozi bets are pari-mutuel stakes, irrevocable once the transaction lands: there is nothing to cancel';
const noTape = 'the chain keeps pools, not a trade tape: trades and prices over time need an indexer of the program’s transactions';
const notYet =
  'not implemented yet: a built Solana transaction expires with its blockhash within about a minute, so bets are signed and sent in one step by createOrder';
/** The venue's advertised bet size limits, in SOL. */
const minBet = 0.01;
const maxBet = 100;
const systemProgram = new Uint8Array(32);
const seed = (text: string) => new TextEncoder().encode(text);
const configAddress = publicKeyBytes(findProgramAddress([seed('config')], programKey))!;

type Lookup = 'event' | 'market';
type Skips = Record<string, number>;

/**
 * Baozi: pari-mutuel pools on Solana, read straight from the program's
 * accounts. Each market is an event of its own; prices are pool shares.
 */
export function createBaoziAdapter(context: AdapterContext, config: BaoziConfig) {
  const http = context.http({ venue: venueId, rateLimit, mapError: mapHttpError });
  const rpc = solanaRpc(http, config.rpcUrl);
  const logger = context.logger;
  const now = () => context.clock.now();

  let cached: { at: number; markets: Promise<RawMarket[]> } | undefined;
  /** Every boolean and race market, one pair of getProgramAccounts calls per 30 seconds. */
  const allMarkets = (): Promise<RawMarket[]> => {
    if (cached && now() - cached.at < listCacheMs) return cached.markets;
    const markets = Promise.all([
      rpc.programAccounts([{ memcmp: { offset: 0, bytes: discriminatorFilters.market } }]),
      rpc.programAccounts([{ memcmp: { offset: 0, bytes: discriminatorFilters.raceMarket } }]),
    ]).then(([booleans, races]) => decodeListed([...booleans, ...races]));
    cached = { at: now(), markets };
    markets.catch(() => {
      if (cached?.markets === markets) cached = undefined;
    });
    return markets;
  };

  /** Decodes listed accounts; any that is not a SOL market of a known type is skipped and counted, never read as one. */
  const decodeListed = (accounts: KeyedAccount[]): RawMarket[] => {
    const skipped: Skips = {};
    let firstFailure: unknown;
    const markets = accounts.flatMap(({ pubkey, account }) => {
      const decoded = decodeMarket(pubkey, account);
      if ('market' in decoded) return [decoded.market];
      skipped[decoded.reason] = (skipped[decoded.reason] ?? 0) + 1;
      firstFailure ??= decoded.error;
      return [];
    });
    if (Object.keys(skipped).length > 0) logger.warn({ skipped }, 'baozi accounts skipped: not boolean or race SOL markets');
    // Every account failing to decode is a layout change, not a few odd accounts.
    if (markets.length === 0 && skipped.layout !== undefined && skipped.layout === accounts.length) throw firstFailure;
    return markets;
  };

  /** One market by its account address; undefined when no account lives there. */
  const lookup = async (pubkey: string, kind: Lookup): Promise<RawMarket | undefined> => {
    if (!publicKeyBytes(pubkey)) {
      throw invalidArgument(kind === 'event' ? 'params.eventId' : 'params.marketId', `${venueId} ids are market account addresses (base58 public keys)`);
    }
    const account = await rpc.accountInfo(pubkey);
    if (account === null) return undefined;
    const decoded = decodeMarket(pubkey, account);
    if ('market' in decoded) return decoded.market;
    if (decoded.reason === 'layout') throw decoded.error;
    throw notAMarket(pubkey, kind, decoded.message);
  };

  const select = async (
    params: EventFetchParams | MarketFetchParams,
    kind: Lookup,
    predicate: ((raw: RawMarket) => boolean) | undefined,
  ): Promise<RawMarket[]> => {
    const named = namedMarket(params);
    const status = statusKeep(params, now());
    if (named !== undefined) {
      const raw = await lookup(named, kind);
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
    const markets = (await allMarkets()).filter(keep);
    const pots = new Map(markets.map((raw) => [raw, potOf(raw)]));
    return markets
      .sort((a, b) => (pots.get(b)! > pots.get(a)! ? 1 : pots.get(b)! < pots.get(a)! ? -1 : a.pubkey < b.pubkey ? -1 : 1))
      .slice(offset, offset + limit);
  };

  /** The wallet an account call is about: the argument, else the caller's `walletAddress`, else the key's. */
  const walletOf = (address: string | undefined): string => {
    const credentials = context.credentials;
    const wallet = address ?? credentials?.walletAddress ?? (credentials?.privateKey ? publicKeyOfSecret(String(credentials.privateKey)) : undefined);
    if (wallet === undefined) {
      if (credentials?.privateKey) throw invalidArgument('credentials.privateKey', `${venueId} privateKey must be a base58 64-byte Solana secret key`);
      throw missingCredentials(venueId, ['walletAddress']);
    }
    if (!publicKeyBytes(wallet)) throw invalidArgument('address', `${venueId} wallets are base58 Solana public keys`);
    return wallet;
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Baozi',
      hosts: { rpc: config.rpcUrl, web: 'https://baozi.bet' },
      rateLimit,
      credentials: { required: [], optional: ['walletAddress', 'privateKey'] },
      unsupported: {
        fetchOrderBook: 'Baozi is pari-mutuel: stakes go into pools and there are no resting orders, so there is no order book',
        fetchOrderBooks: 'Baozi is pari-mutuel: stakes go into pools and there are no resting orders, so there is no order book',
        fetchTrades: `Baozi: ${noTape}`,
        fetchOHLCV: `Baozi: ${noTape}`,
        fetchSeries: 'Baozi has no series: each market stands alone',
        fetchEventMetadata: 'Baozi keeps no event metadata on chain (its off-chain metadata endpoint is not documented)',
        buildOrder: notYet,
        submitOrder: notYet,
        cancelOrder: irrevocable,
        fetchOpenOrders: 'Baozi bets go straight into the pool: there are never open orders',
        fetchClosedOrders: 'Baozi keeps no order history on chain; bets are transactions, found only through an indexer',
        fetchAllOrders: 'Baozi keeps no order history on chain; bets are transactions, found only through an indexer',
        fetchMyTrades: 'Baozi keeps no trade history on chain; bets are transactions, found only through an indexer',
      },
    },

    async fetchEvents(params = {}) {
      const predicate = eventListPredicate(params);
      return (await select(params, 'event', predicate && ((raw) => predicate(normalizeEvent(raw, now()))))).map((raw) => normalizeEvent(raw, now()));
    },

    async fetchMarkets(params = {}) {
      const predicate = marketListPredicate(params);
      return (await select(params, 'market', predicate && ((raw) => predicate(normalizeMarket(raw, now()))))).map((raw) => normalizeMarket(raw, now()));
    },

    async fetchPositions(address) {
      const wallet = walletOf(address);
      const owned = (discriminator: string) => [{ memcmp: { offset: 0, bytes: discriminator } }, { memcmp: { offset: 8, bytes: wallet } }];
      const [booleans, races] = await Promise.all([
        rpc.programAccounts(owned(discriminatorFilters.userPosition)),
        rpc.programAccounts(owned(discriminatorFilters.racePosition)),
      ]);
      const positions: Array<RawUserPosition | RawRacePosition> = [
        ...booleans.map(({ pubkey, account }) => decodePosition(pubkey, account, 'userPosition', decodeUserPosition)),
        ...races.map(({ pubkey, account }) => decodePosition(pubkey, account, 'racePosition', decodeRacePosition)),
      ].filter((position) => !position.claimed);
      // The position names its market by number: the market's address derives from it.
      const addressOf = (position: RawUserPosition | RawRacePosition) =>
        findProgramAddress([new TextEncoder().encode(position.kind === 'boolean' ? 'market' : 'race'), u64Seed(position.marketIdNum)], programKey);
      const addresses = [...new Set(positions.map(addressOf))];
      const markets = new Map<string, RawMarket>();
      for (let start = 0; start < addresses.length; start += accountsPerCall) {
        const keys = addresses.slice(start, start + accountsPerCall);
        const accounts = await rpc.multipleAccounts(keys);
        accounts.forEach((account, index) => {
          const pubkey = keys[index]!;
          if (account === null) return;
          const decoded = decodeMarket(pubkey, account);
          if ('market' in decoded) markets.set(pubkey, decoded.market);
          else if (decoded.reason === 'layout') throw decoded.error;
        });
      }
      return positions.flatMap((position): Position[] => {
        const pubkey = addressOf(position);
        const market = markets.get(pubkey);
        if (!market || market.kind !== position.kind) {
          throw new PredgateError(
            'EXCHANGE_NOT_AVAILABLE',
            `${venueId}: a position names market ${position.marketIdNum}, but no ${position.kind} market lives at ${pubkey}`,
            {
              detail: { marketIdNum: position.marketIdNum.toString(), marketId: pubkey, drift: true },
            },
          );
        }
        const stakes = position.kind === 'boolean' ? [position.yes, position.no] : position.bets.slice(0, outcomeIdsOf(market).length);
        const prices = pricesOf(market);
        const normalized = normalizeMarket(market, now());
        return stakes.flatMap((stake, index) => {
          if (stake === 0n) return [];
          const outcome = normalized.outcomes[index];
          const price = prices[index];
          if (!outcome || price === undefined) {
            throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: a stake on outcome ${index} of ${pubkey} has no pool price`, {
              detail: { marketId: pubkey, outcome: index, drift: true },
            });
          }
          // A pari-mutuel stake has no entry price on chain: the current pool share stands in for it, so no profit is claimed.
          return [
            {
              marketId: pubkey,
              outcomeId: outcome.outcomeId,
              outcomeLabel: outcome.label,
              size: sol(stake),
              entryPrice: price,
              currentPrice: price,
              unrealizedPnL: 0,
            },
          ];
        });
      });
    },

    async createOrder(params) {
      const secret = context.credentials?.privateKey;
      if (!secret) throw missingCredentials(venueId, ['privateKey']);
      const payer = keypairOf(String(secret));
      if (!payer) throw invalidArgument('credentials.privateKey', `${venueId} privateKey must be a base58 64-byte Solana secret key`);
      if (params.side !== 'buy') throw invalidOrder('a pari-mutuel stake can only be placed (side buy); it cannot be sold');
      if (params.type !== 'market' || params.price !== undefined) {
        throw invalidOrder('a pari-mutuel bet has no price: the payout is set by the final pools, so only market orders without a price are placed');
      }
      const lamports = lamportsOf(params.amount);
      const target = parseOutcomeId(params.outcomeId);
      if (!target) throw invalidArgument('params.outcomeId', `${venueId} outcome ids are <market address>-YES, -NO or -<index>`);
      if (target.market !== params.marketId)
        throw invalidArgument('params.marketId', `outcome ${params.outcomeId} is not an outcome of market ${params.marketId}`);
      const market = await lookup(target.market, 'market');
      if (!market) throw notAMarket(target.market, 'market', `no market lives at ${target.market}`);
      const outcome =
        market.kind === 'boolean'
          ? target.side === 'YES'
            ? 1
            : target.side === 'NO'
              ? 0
              : undefined
          : typeof target.side === 'number' && target.side < market.labels.length
            ? target.side
            : undefined;
      if (outcome === undefined) {
        throw new PredgateError('OUTCOME_NOT_FOUND', `${venueId}: market ${market.pubkey} has no outcome ${params.outcomeId.slice(0, 80)}`, {
          detail: { outcomeId: params.outcomeId.slice(0, 80) },
        });
      }
      if (statusOf(market, now()) !== 'active') throw invalidOrder(`market ${market.pubkey} is not open for betting (${statusName(market)})`);
      if (market.accessGate !== 0)
        throw invalidOrder(`market ${market.pubkey} is an invite-only pool: betting on it needs an invite this adapter does not hold`);

      const position = findProgramAddress(
        [seed(market.kind === 'boolean' ? 'position' : 'race_position'), u64Seed(market.marketIdNum), payer.publicKey],
        programKey,
      );
      const data = new Uint8Array(17);
      data.set(market.kind === 'boolean' ? betInstructions.boolean : betInstructions.race, 0);
      data[8] = outcome;
      new DataView(data.buffer).setBigUint64(9, lamports, true);
      const blockhash = publicKeyBytes(await rpc.latestBlockhash())!;
      // Accounts as the program takes them: config, market, position, the program itself (no affiliate), the bettor, the system program.
      const { wire, signature } = signedTransaction({
        payer,
        programId: programKey,
        accounts: [
          { pubkey: configAddress, signer: false, writable: false },
          { pubkey: publicKeyBytes(market.pubkey)!, signer: false, writable: true },
          { pubkey: publicKeyBytes(position)!, signer: false, writable: true },
          { pubkey: programKey, signer: false, writable: false },
          { pubkey: payer.publicKey, signer: true, writable: true },
          { pubkey: systemProgram, signer: false, writable: false },
        ],
        data,
        recentBlockhash: blockhash,
      });
      const sent = await rpc.sendTransaction(Buffer.from(wire).toString('base64'));
      const id = base58Encode(signature);
      if (sent !== id) {
        throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: the RPC answered sendTransaction with a signature that is not the transaction's`, {
          detail: { endpoint: 'sendTransaction', field: 'result', drift: true, signature: id },
        });
      }
      const amount = sol(lamports);
      // Sent and passed preflight; it fills when it lands (fetchOrder by this id tells).
      return {
        id,
        marketId: market.pubkey,
        outcomeId: params.outcomeId,
        side: 'buy',
        type: 'market',
        amount,
        status: 'pending',
        filled: 0,
        remaining: amount,
        timestamp: now(),
      };
    },

    async fetchOrder(orderId) {
      const wallet = walletOf(undefined);
      const signature = base58Decode(orderId);
      if (signature?.length !== 64) throw invalidArgument('orderId', `${venueId} order ids are transaction signatures (base58, 64 bytes)`);
      const transaction = await rpc.transaction(orderId);
      const order = transaction && betOf(orderId, transaction);
      // Only the caller's own bets: the fee payer and signer is the first account.
      if (!order || transaction.transaction.message.accountKeys[0] !== wallet) {
        throw new PredgateError('ORDER_NOT_FOUND', `${venueId}: no bet of ${wallet} in transaction ${orderId}`, { detail: { orderId } });
      }
      return order;
    },

    async fetchBalance(address) {
      const wallet = walletOf(address);
      const lamports = await rpc.balance(wallet);
      const total = sol(BigInt(lamports));
      return [{ currency: 'SOL', total, available: total, locked: 0 }];
    },
  });
}

/**
 * The bet a transaction placed: the program's place_bet_sol or
 * bet_on_race_outcome_sol instruction, its market (second account), outcome
 * and amount; undefined when it placed none.
 */
function betOf(signature: string, transaction: RawTransaction): Order | undefined {
  const { message } = transaction.transaction;
  const loaded = transaction.meta?.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  for (const instruction of message.instructions) {
    if (keys[instruction.programIdIndex] !== programId) continue;
    const data = base58Decode(instruction.data);
    if (!data || data.length < 17) continue;
    const head = Buffer.from(data.subarray(0, 8));
    const kind = head.equals(betInstructions.boolean) ? 'boolean' : head.equals(betInstructions.race) ? 'race' : undefined;
    const market = keys[instruction.accounts[1] ?? -1];
    if (!kind || !market) continue;
    const outcome = data[8]!;
    if (kind === 'boolean' && outcome > 1) continue;
    const lamports = Buffer.from(data).readBigUInt64LE(9);
    if (lamports === 0n) continue;
    const amount = sol(lamports);
    if (transaction.blockTime === null) {
      throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: transaction ${signature} has no blockTime`, {
        detail: { endpoint: 'getTransaction', field: 'result.blockTime', drift: true },
      });
    }
    const filled = transaction.meta !== null && (transaction.meta.err === null || transaction.meta.err === undefined);
    return {
      id: signature,
      marketId: market,
      outcomeId: kind === 'boolean' ? `${market}-${outcome === 1 ? 'YES' : 'NO'}` : `${market}-${outcome}`,
      side: 'buy',
      type: 'market',
      amount,
      status: filled ? 'filled' : 'rejected',
      filled: filled ? amount : 0,
      remaining: 0,
      timestamp: transaction.blockTime * 1000,
      ...(transaction.meta ? { fee: sol(BigInt(transaction.meta.fee)) } : {}),
    };
  }
  return undefined;
}

type Decoded = { market: RawMarket } | { reason: 'owner' | 'other' | 'position' | 'currency' | 'layout'; message: string; error?: unknown };

/**
 * An account as a market, or why it is not one. The owner and the 8-byte
 * discriminator decide; anything else (a Measurement "Type B" market, a
 * config, a position) is never decoded with a market's layout.
 */
function decodeMarket(pubkey: string, account: RawAccount): Decoded {
  if (account.owner !== programId) return { reason: 'owner', message: `${pubkey} is not a Baozi account (its owner is ${account.owner})` };
  const data = Buffer.from(account.data[0], 'base64');
  const kind = accountKind(data);
  if (kind === 'userPosition' || kind === 'racePosition') return { reason: 'position', message: `${pubkey} is a Baozi position account, not a market` };
  if (kind !== 'market' && kind !== 'raceMarket') {
    return {
      reason: 'other',
      message: `${pubkey} is a Baozi account of another type (discriminator ${discriminatorHex(data)}), not a boolean or race market; Measurement (Type B) markets are not read by Predgate`,
    };
  }
  let market: RawMarket;
  try {
    market = kind === 'market' ? decodeBooleanMarket(pubkey, data) : decodeRaceMarket(pubkey, data);
  } catch (error) {
    return { reason: 'layout', message: String(error), error: layoutDrift(pubkey, kind === 'market' ? 'Market' : 'RaceMarket', error) };
  }
  // currency_type 0 is SOL; USDC pools are reserved in the layout but not live, and their amounts would not be lamports.
  if (market.currencyType !== 0) return { reason: 'currency', message: `${pubkey} is not a SOL market (currency_type ${market.currencyType})` };
  return { market };
}

function decodePosition<T>(pubkey: string, account: RawAccount, kind: 'userPosition' | 'racePosition', decode: (data: Buffer) => T): T {
  const data = Buffer.from(account.data[0], 'base64');
  const name = kind === 'userPosition' ? 'UserPosition' : 'RacePosition';
  if (account.owner !== programId || accountKind(data) !== kind) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: the RPC answered a ${name} query with ${pubkey}, which is not one`, {
      detail: { account: pubkey, discriminator: discriminatorHex(data), drift: true },
    });
  }
  try {
    return decode(data);
  } catch (error) {
    throw layoutDrift(pubkey, name, error);
  }
}

/** SOL to lamports exactly: at most 9 decimals, within the venue's bet limits. */
function lamportsOf(amount: number): bigint {
  if (amount < minBet || amount > maxBet) throw invalidOrder(`a bet is ${minBet} to ${maxBet} SOL (got ${amount})`);
  const fixed = amount.toFixed(9);
  if (Number(fixed) !== amount) throw invalidArgument('params.amount', `${venueId} amounts are SOL with at most 9 decimals (lamports)`);
  return BigInt(fixed.replace('.', ''));
}

function invalidOrder(reason: string): PredgateError {
  return new PredgateError('INVALID_ORDER', `${venueId}: ${reason}`);
}

function statusName(raw: RawMarket): string {
  return raw.status === 0
    ? 'betting closed at its closing time'
    : (['active', 'closed', 'resolved', 'cancelled', 'paused', 'resolved pending', 'disputed'][raw.status] ?? `status ${raw.status}`);
}

function layoutDrift(pubkey: string, type: string, error: unknown): PredgateError {
  const field = error instanceof LayoutError ? error.field : undefined;
  return new PredgateError(
    'EXCHANGE_NOT_AVAILABLE',
    `${venueId}: account ${pubkey} does not decode as a ${type}: ${error instanceof Error ? error.message : String(error)}`,
    {
      detail: { account: pubkey, type, ...(field ? { field } : {}), drift: true },
    },
  );
}

function notAMarket(pubkey: string, kind: Lookup, message: string): PredgateError {
  return new PredgateError(kind === 'event' ? 'EVENT_NOT_FOUND' : 'MARKET_NOT_FOUND', `${venueId}: ${message}`, {
    detail: kind === 'event' ? { eventId: pubkey } : { marketId: pubkey },
  });
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
