import { PredgateError, invalidArgument, missingCredentials } from '@predgate/core';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { venueId } from '../venue.js';
import type { HyperliquidContext } from '../context.js';

/*
 * Reads name the account by address, which is public: the `walletAddress`
 * credential, else the address of `privateKey`; actions are signed with
 * `privateKey` and a nonce.
 */

export /** Nonces are the current millisecond, and strictly increasing per adapter instance. */
function nextNonce(ctx: HyperliquidContext): number {
  ctx.lastNonce = Math.max(ctx.clock.now(), ctx.lastNonce + 1);
  return ctx.lastNonce;
}

export function privateKeyOf(ctx: HyperliquidContext): Hex {
  const key = ctx.credentials?.privateKey;
  if (!key) throw missingCredentials(venueId, ['privateKey']);
  const hex = (key.startsWith('0x') ? key : `0x${key}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
    throw new PredgateError('AUTHENTICATION_ERROR', 'hyperliquid: privateKey must be 32 bytes of hex', { detail: { member: 'privateKey' } });
  return hex;
}

export /** The account an info read names: the address given, the `walletAddress` credential, else the signing key's address. */
function userOf(ctx: HyperliquidContext, address?: string): string {
  const user = address ?? ctx.credentials?.walletAddress ?? (ctx.credentials?.privateKey ? privateKeyToAccount(privateKeyOf(ctx)).address : undefined);
  if (user === undefined) throw missingCredentials(venueId, ['walletAddress']);
  if (!/^0x[0-9a-fA-F]{40}$/.test(user))
    throw invalidArgument('address', `hyperliquid accounts are EVM addresses (0x and 40 hex digits), got "${user.slice(0, 60)}"`);
  return user;
}
