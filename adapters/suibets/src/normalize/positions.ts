import { roundTo, toNumber } from '@predgate/core';
import type { Position } from '@predgate/core';
import type { RawActivity, RawOffer } from '../api/schemas.js';
import { normalizeOffer } from './markets.js';

/**
 * The account's matched exposure. A share pays one unit of the offer's
 * currency if its side wins, so a matched stake holds its payout in shares:
 * the creator's matched stake `filledStake / (odds − 1)` pays `× odds`, a
 * taker's stake pays `× odds / (odds − 1)`.
 */
export function normalizePositions(activity: RawActivity): Position[] {
  const positions: Position[] = [];
  for (const raw of activity.myOffers) {
    const odds = toNumber(raw.odds)!;
    const shares = ((toNumber(raw.filledStake) ?? 0) / (odds - 1)) * odds;
    if (shares > 0 && holdsExposure(raw.status)) positions.push(position(raw, 'creator', shares));
  }
  for (const match of activity.myMatches) {
    if (!match.offer || !holdsExposure(match.status ?? match.offer.status)) continue;
    const odds = toNumber(match.offer.odds)!;
    positions.push(position(match.offer, 'taker', (toNumber(match.stake)! * odds) / (odds - 1)));
  }
  return positions;
}

function position(raw: RawOffer, side: 'creator' | 'taker', shares: number): Position {
  const market = normalizeOffer(raw);
  const outcome = market.outcomes[side === 'creator' ? 0 : 1]!;
  return {
    marketId: market.marketId,
    outcomeId: outcome.outcomeId,
    outcomeLabel: outcome.label,
    size: roundTo(shares, 9),
    entryPrice: outcome.price!,
    // Fixed odds: the side's price does not move once matched.
    currentPrice: outcome.price!,
    unrealizedPnL: 0,
  };
}

/** Matched stakes still riding on a result; settled, refunded and cancelled ones are history. */
function holdsExposure(status: string): boolean {
  return ['open', 'partial', 'filled', 'settling', 'active'].includes(status.toLowerCase());
}
