import { compact, fromBaseUnits, percentToFraction, text, toFraction, toIsoDate, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus } from '@predgate/core';
import type { PoolState, RawPool } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { poolKey } from '../ids.js';

/** Wire statuses (and the SDK's names for them) under which a pool still trades. */
export const tradingStatuses = new Set(['new', 'live', 'closing_soon', 'closingsoon', 'pending_finalization', 'trading']);
const resolving = new Set([
  'waiting_for_result',
  'waitingforresult',
  'dispute_window_open',
  'inreview',
  'appeal_window_open',
  'inevaluation',
  'under_dispute',
  'underdispute',
  'under_appeal',
  'underappeal',
]);

/** Each option's on-chain index: its `choiceIndex`, else its place in the list (rows without one, as in Swagger's example). */
export const choiceOf = (pool: RawPool, position: number) => pool.options[position]!.choiceIndex ?? position;

/** The pool's collateral decimals: on-chain when read, else the REST token's, else USD₮0's 6. */
export const restDecimals = (pool: RawPool) => pool.token?.tokenDecimals ?? 6;

/** Whether the chain is worth reading for this pool: deployed, and not settled (a closed pool's prices are its result). */
export const readsChain = (pool: RawPool): pool is RawPool & { contractAddress: string } => Boolean(pool.contractAddress) && !isClosed(pool);

const isClosed = (pool: RawPool) => pool.status?.toLowerCase() === 'closed';

/**
 * One pool, one market of all its options: each option is an outcome priced by
 * its own AMM price (pmxt split pools of more than two options into binaries
 * with synthetic "Not X" outcomes that cannot be traded). Amounts are in the
 * pool's collateral (`sourceMetadata.collateral`: USD₮0 or RAIN).
 */
export function normalizeMarket(pool: RawPool, state?: PoolState): Market {
  const marketId = poolKey(pool._id);
  const decimals = state?.decimals ?? restDecimals(pool);
  const settled = isClosed(pool) && pool.winnerOption ? pool.winnerOption.choiceIndex : undefined;
  const volume = state ? fromBaseUnits(state.allFunds.toString(), decimals) : fromBaseUnits(pool.totalVolume, restDecimals(pool));
  const liquidity = state ? fromBaseUnits(state.totalLiquidity.toString(), decimals) : fromBaseUnits(pool.totalLiquidity, restDecimals(pool));
  const endTime = state && state.endTime > 0n ? Number(state.endTime) * 1000 : undefined;
  return withBinaryRefs(
    compact({
      marketId,
      eventId: marketId,
      title: pool.question,
      description: text(pool.poolDescription) ?? '',
      slug: pool._id,
      url: `https://rain.one/markets/${pool._id}`,
      image: text(pool.poolImage),
      outcomes: pool.options.map((option, position) => {
        const choice = choiceOf(pool, position);
        const onChain = state?.prices[position];
        return compact({
          outcomeId: `${marketId}:${choice}`,
          marketId,
          label: option.optionName,
          price:
            settled !== undefined
              ? settled === choice
                ? 1
                : 0
              : onChain !== undefined
                ? toFraction(fromBaseUnits(onChain.toString(), 18))
                : percentToFraction(option.percentage),
        });
      }),
      resolutionDate: endTime === undefined ? toIsoDate(pool.endDate) : new Date(endTime).toISOString(),
      // Rain reports no 24-hour figure; `volume` is the pool's lifetime total.
      volume24h: 0,
      volume,
      liquidity: liquidity ?? 0,
      status: statusOf(pool),
      category: pool.tags?.[0],
      tags: pool.tags && pool.tags.length > 0 ? pool.tags : undefined,
      contractAddress: text(pool.contractAddress),
      sourceExchange: venueId,
      sourceMetadata: metadataOf(pool, state),
    }),
  );
}

/** Each pool is one event holding its one market. */
export function normalizeEvent(pool: RawPool, state?: PoolState): Event {
  const market = normalizeMarket(pool, state);
  return compact({
    id: market.marketId,
    title: market.title,
    description: market.description,
    slug: pool._id,
    url: market.url,
    image: market.image,
    markets: [market],
    volume24h: 0,
    volume: market.volume,
    category: market.category,
    tags: market.tags,
    sourceExchange: venueId,
    sourceMetadata: market.sourceMetadata,
  });
}

/** Trading statuses are active; the resolution and dispute stages are closed (trading over, no result yet); Closed with a winner is resolved. */
export function statusOf(pool: RawPool): MarketStatus | undefined {
  const status = pool.status?.toLowerCase();
  if (status === undefined) return undefined;
  if (tradingStatuses.has(status)) return 'active';
  if (resolving.has(status)) return 'closed';
  if (status === 'closed') return pool.winnerOption ? 'resolved' : 'closed';
  return undefined;
}

/** A closed pool with a winning option names it: its label and outcome id. */
function winnerOf(pool: RawPool): { winner?: string; winningOutcomeId?: string } {
  if (!isClosed(pool) || !pool.winnerOption) return {};
  const position = pool.options.findIndex((_, at) => choiceOf(pool, at) === pool.winnerOption!.choiceIndex);
  if (position < 0) return {};
  return { winner: pool.options[position]!.optionName, winningOutcomeId: `${poolKey(pool._id)}:${pool.winnerOption.choiceIndex}` };
}

function metadataOf(pool: RawPool, state: PoolState | undefined): Record<string, unknown> {
  return compact({
    id: pool._id,
    status: pool.status ?? undefined,
    collateral: compact({
      symbol: text(pool.token?.tokenSymbol),
      address: text(pool.token?.tokenAddress),
      decimals: state?.decimals ?? restDecimals(pool),
    }),
    totalVolume: pool.totalVolume === undefined || pool.totalVolume === null ? undefined : String(pool.totalVolume),
    totalLiquidity: pool.totalLiquidity === undefined || pool.totalLiquidity === null ? undefined : String(pool.totalLiquidity),
    startDate: text(pool.startDate),
    endDate: text(pool.endDate),
    createdAt: text(pool.createdAt),
    participantCount: pool.participantCount ?? undefined,
    poolOwner: text(pool.poolOwnerWalletAddress),
    isPrivate: pool.isPrivate ?? undefined,
    isAiResolver: pool.isAiResolver ?? undefined,
    isDisputed: pool.isDisputed ?? undefined,
    isAppealed: pool.isAppealed ?? undefined,
    winnerOption: pool.winnerOption ?? undefined,
    ...winnerOf(pool),
    options: pool.options.map((option, position) =>
      compact({
        choiceIndex: choiceOf(pool, position),
        optionName: option.optionName,
        percentage: option.percentage ?? undefined,
        image: text(option.optionImage),
        funds: state?.funds[position]?.toString(),
      }),
    ),
    chain: state
      ? {
          allFunds: state.allFunds.toString(),
          totalLiquidity: state.totalLiquidity.toString(),
          endTime: Number(state.endTime),
          poolState: state.poolState,
          winner: Number(state.winner),
        }
      : undefined,
  });
}
