import { PredgateError, invalidArgument, isPredgateError, missingCredentials, reportDrift } from '@predgate/core';
import type { Balance, Position } from '@predgate/core';
import { findProgramAddress, publicKeyBytes, publicKeyOfSecret, u64Seed } from '../auth/solana.js';
import { programId, venueId } from '../venue.js';
import type { BaoziContext } from '../context.js';
import { decodeMarket, decodePosition } from '../normalize/accounts.js';
import { decodeRacePosition, decodeUserPosition, discriminatorFilters, normalizeMarket, outcomeIdsOf, pricesOf, sol } from '../normalize/markets.js';
import type { RawMarket, RawRacePosition, RawUserPosition } from '../normalize/markets.js';

/** The public RPC's cap on keys per getMultipleAccounts. */
const accountsPerCall = 100;
const programKey = publicKeyBytes(programId)!;

/* A wallet's SOL and its stakes, read from its position accounts. */

export async function fetchBalance(ctx: BaoziContext, address?: string): Promise<Balance[]> {
  const wallet = walletOf(ctx, address);
  const lamports = await ctx.rpc.balance(wallet);
  const total = sol(BigInt(lamports));
  return [{ currency: 'SOL', total, available: total, locked: 0 }];
}

/**
 * A wallet's stakes, one row per staked side. A position account or market
 * account that does not read is left out as drift (named by its address);
 * the wallet's other stakes are served.
 */
export async function fetchPositions(ctx: BaoziContext, address?: string): Promise<Position[]> {
  const wallet = walletOf(ctx, address);
  const owned = (discriminator: string) => [{ memcmp: { offset: 0, bytes: discriminator } }, { memcmp: { offset: 8, bytes: wallet } }];
  const [booleans, races] = await Promise.all([
    ctx.rpc.programAccounts(owned(discriminatorFilters.userPosition)),
    ctx.rpc.programAccounts(owned(discriminatorFilters.racePosition)),
  ]);
  const readable = <T>(pubkey: string, read: () => T): Array<{ pubkey: string; position: T }> => {
    try {
      return [{ pubkey, position: read() }];
    } catch (error) {
      return leftOut(error);
    }
  };
  const positions: Array<{ pubkey: string; position: RawUserPosition | RawRacePosition }> = [
    ...booleans.flatMap(({ pubkey, account }) => readable(pubkey, () => decodePosition(pubkey, account, 'userPosition', decodeUserPosition))),
    ...races.flatMap(({ pubkey, account }) => readable(pubkey, () => decodePosition(pubkey, account, 'racePosition', decodeRacePosition))),
  ].filter(({ position }) => !position.claimed);
  // The position names its market by number: the market's address derives from it.
  const addressOf = (position: RawUserPosition | RawRacePosition) =>
    findProgramAddress([new TextEncoder().encode(position.kind === 'boolean' ? 'market' : 'race'), u64Seed(position.marketIdNum)], programKey);
  const addresses = [...new Set(positions.map(({ position }) => addressOf(position)))];
  const markets = new Map<string, RawMarket | PredgateError>();
  for (let start = 0; start < addresses.length; start += accountsPerCall) {
    const keys = addresses.slice(start, start + accountsPerCall);
    const accounts = await ctx.rpc.multipleAccounts(keys);
    accounts.forEach((account, index) => {
      const pubkey = keys[index]!;
      if (account === null) return;
      const decoded = decodeMarket(pubkey, account);
      if ('market' in decoded) markets.set(pubkey, decoded.market);
      else if (decoded.reason === 'layout') markets.set(pubkey, decoded.error);
    });
  }
  return positions.flatMap(({ pubkey: positionKey, position }): Position[] => {
    const pubkey = addressOf(position);
    const market = markets.get(pubkey);
    if (market instanceof PredgateError) return leftOut(market);
    if (!market || market.kind !== position.kind) {
      return leftOut(
        new PredgateError(
          'EXCHANGE_NOT_AVAILABLE',
          `${venueId}: a position names market ${position.marketIdNum}, but no ${position.kind} market lives at ${pubkey}`,
          {
            detail: { item: positionKey, field: 'market_id', marketIdNum: position.marketIdNum.toString(), marketId: pubkey, drift: true },
          },
        ),
      );
    }
    const stakes = position.kind === 'boolean' ? [position.yes, position.no] : position.bets.slice(0, outcomeIdsOf(market).length);
    const prices = pricesOf(market);
    const normalized = normalizeMarket(market, ctx.now());
    return stakes.flatMap((stake, index) => {
      if (stake === 0n) return [];
      const outcome = normalized.outcomes[index];
      const price = prices[index];
      if (!outcome || price === undefined) {
        return leftOut(
          new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: a stake on outcome ${index} of ${pubkey} has no pool price`, {
            detail: { item: positionKey, field: `bets[${index}]`, marketId: pubkey, outcome: index, drift: true },
          }),
        );
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
}

/** Reports an unreadable account as drift and leaves it out; anything that is not drift is still thrown. */
function leftOut(error: unknown): [] {
  if (!isPredgateError(error) || error.detail?.drift !== true) throw error;
  reportDrift(error);
  return [];
}

/** The wallet an account call is about: the argument, else the caller's `walletAddress`, else the key's. */
export function walletOf(ctx: BaoziContext, address: string | undefined): string {
  const credentials = ctx.credentials;
  const wallet = address ?? credentials?.walletAddress ?? (credentials?.privateKey ? publicKeyOfSecret(String(credentials.privateKey)) : undefined);
  if (wallet === undefined) {
    if (credentials?.privateKey) throw invalidArgument('credentials.privateKey', `${venueId} privateKey must be a base58 64-byte Solana secret key`);
    throw missingCredentials(venueId, ['walletAddress']);
  }
  if (!publicKeyBytes(wallet)) throw invalidArgument('address', `${venueId} wallets are base58 Solana public keys`);
  return wallet;
}
