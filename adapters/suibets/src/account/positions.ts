import { invalidArgument, missingCredentials } from '@predgate/core';
import type { Position } from '@predgate/core';
import { venueId } from '../venue.js';
import type { SuibetsContext } from '../context.js';
import { normalizePositions } from '../normalize/positions.js';

const suiAddress = /^0x[0-9a-fA-F]{64}$/;

/** Positions are public by wallet: the address given, else the caller's `walletAddress` credential. */
export async function fetchPositions(ctx: SuibetsContext, address?: string): Promise<Position[]> {
  const wallet = address ?? ctx.walletAddress;
  if (wallet === undefined) throw missingCredentials(venueId, ['walletAddress']);
  if (!suiAddress.test(wallet))
    throw invalidArgument('address', `${venueId} positions are read by Sui address (0x and 64 hex digits), got "${wallet.slice(0, 80)}"`);
  return normalizePositions(await ctx.api.activity(wallet));
}
