import { invalidArgument } from '@predgate/core';
import type { Position } from '@predgate/core';
import type { LimitlessContext } from '../context.js';
import { ammPosition, clobPositions } from '../normalize/account.js';
import { outcomeIdsOf } from '../reads/lookups.js';

/**
 * The caller's positions (`GET /portfolio/positions`), or a public
 * address's. CLOB entries hold both sides, AMM entries one outcome; a
 * side without shares is no position. Outcome ids come from the market
 * (the payload names sides, not tokens).
 */
export async function fetchPositions(ctx: LimitlessContext, address?: string): Promise<Position[]> {
  if (address !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw invalidArgument('address', `"address" must be a 0x-prefixed 20-byte address`);
  }
  const raw = address === undefined ? await ctx.api.positions(ctx.sign) : await ctx.api.publicPositions(address);
  const clob = await Promise.all(raw.clob.map(async (entry, index) => clobPositions(entry, await outcomeIdsOf(ctx, entry.market.slug), index)));
  return [...clob.flat(), ...raw.amm.flatMap((entry, index) => ammPosition(entry, index))];
}
