import { PredgateError, fromBaseUnits, invalidArgument, missingCredentials, percentToFraction, reportDrift, toFraction } from '@predgate/core';
import type { Balance, MyTradesParams, Position, UserTrade } from '@predgate/core';
import type { Hex } from 'viem';
import type { RawPool } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { RainContext } from '../context.js';
import { partsOf } from '../ids.js';
import { choiceOf } from '../normalize/pools.js';
import { walletTrades } from '../normalize/trades.js';
import { everyPool } from '../reads/catalog.js';
import { maxRows, subgraphKey } from '../reads/trades.js';

/*
 * A wallet's trades from the subgraph and its holdings read on-chain. Rain has
 * no accounts: a wallet is named by its public address.
 */

const defaultLimit = 20;
const evmAddress = /^0x[0-9a-fA-F]{40}$/;

export async function fetchMyTrades(ctx: RainContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const wallet = walletOf(ctx);
  const { history, byContract } = await walletHistory(ctx, wallet);
  const market = params.marketId === undefined ? undefined : partsOf(params.marketId)?.poolId;
  const outcome = params.outcomeId === undefined ? undefined : partsOf(params.outcomeId);
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  return walletTrades(history, byContract)
    .filter(
      ({ pool, choice, trade }) =>
        (params.marketId === undefined || pool._id === market) &&
        (params.outcomeId === undefined || (pool._id === outcome?.poolId && choice === outcome.choice)) &&
        trade.timestamp >= since &&
        trade.timestamp <= until,
    )
    .map(({ trade }) => trade)
    .slice(0, params.limit ?? defaultLimit);
}

/**
 * The tokens Rain pools are funded in, on Arbitrum One: USD₮0 for most pools,
 * RAIN for some, and USDC, which Rain's own clients also report.
 */
const collateralTokens = [
  { currency: 'USDT0', address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9' },
  { currency: 'USDC', address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
  { currency: 'RAIN', address: '0x43976a124e6834b541840Ce741243dAD3dd538DA' },
] as const;

/**
 * The wallet's collateral balances, read on-chain (`balanceOf`, `decimals`).
 * The integer in base units is read exactly and divided on its digits, so the
 * only rounding is to the nearest double of the model's number (an 18-decimal
 * RAIN balance is past 2^53 in base units). Tokens escrowed in a pool's limit
 * orders have left the wallet, so the balance is all available. A token whose
 * read fails is left out and reported as drift; the others are served.
 */
export async function fetchBalance(ctx: RainContext, address?: string): Promise<Balance[]> {
  const wallet = walletOf(ctx, address);
  const answers = await ctx.api.tokenBalances(
    collateralTokens.map((token) => token.address),
    wallet,
  );
  return answers.flatMap((answer, index): Balance[] => {
    const { currency, address: contract } = collateralTokens[index]!;
    if ('error' in answer) {
      const venueMessage = answer.error.slice(0, 200);
      reportDrift(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: the ${currency} balance of ${wallet} could not be read on Arbitrum: ${venueMessage}`, {
          exchange: venueId,
          detail: { endpoint: 'POST eth_call batch', contract, item: currency, field: venueMessage.split(':')[0], venueMessage, drift: true },
        }),
      );
      return [];
    }
    const total = fromBaseUnits(answer.units.toString(), answer.decimals)!;
    return [{ currency, total, available: total, locked: 0 }];
  });
}

export async function fetchPositions(ctx: RainContext, address?: string): Promise<Position[]> {
  const wallet = walletOf(ctx, address);
  const { history, byContract } = await walletHistory(ctx, wallet);
  const claimed = new Set(history.claims.map((row) => row.poolAddress.toLowerCase()));
  // What the wallet paid per option, for its entry price: collateral over shares of every buy.
  const cost = new Map<string, { base: bigint; shares: bigint }>();
  const byId = new Map<string, RawPool>();
  for (const { pool, choice, trade, row } of walletTrades(history, byContract)) {
    if (trade.side !== 'buy') continue;
    const key = `${pool._id}:${choice}`;
    const sum = cost.get(key) ?? { base: 0n, shares: 0n };
    cost.set(key, { base: sum.base + BigInt(row.baseAmount), shares: sum.shares + BigInt(row.optionAmount) });
    byId.set(pool._id, pool);
  }
  // Pools the wallet bought into and has not claimed from, in id order; its shares are read on-chain.
  const pools = [...byId.keys()]
    .sort()
    .map((id) => byId.get(id)!)
    .filter((pool) => !claimed.has(pool.contractAddress!.toLowerCase()));
  if (pools.length === 0) return [];
  const holdings = await ctx.api.holdings(
    pools.map((pool) => ({ contractAddress: pool.contractAddress!, options: pool.options.map((_, at) => choiceOf(pool, at)) })),
    wallet,
  );
  return pools.flatMap((pool, index) => {
    const held = holdings[index]!;
    return pool.options.flatMap((option, at): Position[] => {
      const size = fromBaseUnits(held.votes[at]!.toString(), held.decimals)!;
      if (!(size > 0)) return [];
      const choice = choiceOf(pool, at);
      const winner = pool.status?.toLowerCase() === 'closed' ? pool.winnerOption?.choiceIndex : undefined;
      const onChain = held.prices[at];
      const currentPrice =
        winner !== undefined
          ? Number(winner === choice)
          : onChain !== undefined
            ? toFraction(fromBaseUnits(onChain.toString(), 18))
            : percentToFraction(option.percentage);
      if (currentPrice === undefined) {
        throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: getCurrentPrice(${choice}) of pool ${pool.contractAddress} failed on Arbitrum`, {
          exchange: venueId,
          detail: { endpoint: 'POST eth_call batch', contract: pool.contractAddress, field: 'getCurrentPrice()' },
        });
      }
      const paid = cost.get(`${pool._id}:${choice}`);
      // Shares bought before the newest 1000 fills of a kind have no recorded cost: the entry is then the current price.
      const entryPrice = paid && paid.shares > 0n ? toFraction(Number(paid.base) / Number(paid.shares))! : currentPrice;
      return [
        {
          marketId: `${venueId}:${pool._id}`,
          outcomeId: `${venueId}:${pool._id}:${choice}`,
          outcomeLabel: option.optionName,
          size,
          entryPrice,
          currentPrice,
          unrealizedPnL: (currentPrice - entryPrice) * size,
        },
      ];
    });
  });
}

/** The wallet a read is for: the address given, else the caller's `walletAddress` (or `funderAddress`). */
function walletOf(ctx: RainContext, address?: string): Hex {
  const wallet = address ?? ctx.credentials?.walletAddress ?? ctx.credentials?.funderAddress;
  if (!wallet) throw missingCredentials(venueId, ['walletAddress']);
  if (!evmAddress.test(wallet))
    throw invalidArgument(address === undefined ? 'credentials.walletAddress' : 'address', `${venueId} wallets are EVM addresses (0x and 40 hex digits)`);
  return wallet as Hex;
}

/** A wallet's history, with every public pool by contract address (lower case) to name the pools it touched. */
async function walletHistory(ctx: RainContext, wallet: Hex) {
  const subgraph = subgraphKey(ctx);
  const history = await ctx.api.walletHistory(subgraph, wallet, maxRows);
  const byContract = new Map((await everyPool(ctx)).filter((pool) => pool.contractAddress).map((pool) => [pool.contractAddress!.toLowerCase(), pool]));
  return { history, byContract };
}
