import { invalidArgument, missingCredentials } from '@predgate/core';
import { venueId } from '../venue.js';
import type { MyriadContext } from '../context.js';

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

/**
 * The wallet a user read is about: the address given, else the caller's
 * `funderAddress`. Myriad's user reads are public by address: no proof of
 * ownership is involved.
 */
export function walletOf(ctx: MyriadContext, address?: string): string {
  const wallet = address ?? ctx.credentials?.funderAddress;
  if (!wallet) throw missingCredentials(venueId, ['funderAddress']);
  if (!evmAddress.test(wallet))
    throw invalidArgument(
      address === undefined ? 'credentials.funderAddress' : 'address',
      `${venueId} user reads are by EVM wallet address (0x and 40 hex digits)`,
    );
  return wallet;
}
