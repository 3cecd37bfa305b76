import { PredgateError, invalidArgument, missingCredentials } from '@predgate/core';
import type { Credentials } from '@predgate/core';
import type { Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { venueId } from '../venue.js';

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

/** The caller's signing account, from the `privateKey` credential. */
export function accountOf(credentials: Credentials | undefined): PrivateKeyAccount {
  const key = credentials?.privateKey;
  if (!key) throw missingCredentials(venueId, ['privateKey']);
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: "privateKey" must be 32 bytes of hex`, { detail: { required: ['privateKey'] } });
  }
  try {
    return privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as Hex);
  } catch {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: "privateKey" is not a valid secp256k1 key`, { detail: { required: ['privateKey'] } });
  }
}

/** The wallet account reads are about: the address given, else `walletAddress`, else the key's. */
export function walletOf(credentials: Credentials | undefined, address: string | undefined): string {
  const wallet = address ?? credentials?.walletAddress ?? (credentials?.privateKey ? accountOf(credentials).address : undefined);
  if (!wallet) throw missingCredentials(venueId, ['walletAddress']);
  if (!evmAddress.test(wallet)) throw invalidArgument('address', `${venueId} wallets are Base addresses (0x and 40 hex digits)`);
  return wallet;
}
