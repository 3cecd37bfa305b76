import { PredgateError, requireCredentials } from '@predgate/core';
import type { Credentials } from '@predgate/core';
import { getAddress, isAddress, isHex } from 'viem';
import type { Address, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { venueId } from '../venue.js';

/**
 * Who trades: the key that signs (and whose address goes in `prob_address`),
 * the address that holds the funds (the order's `maker`) and how the
 * exchange checks the signature.
 */

/** 0 the key's own wallet (EOA), 1 a Probable proxy wallet, 2 a Gnosis Safe. */
export type SignatureType = 0 | 1 | 2;

const signatureTypeNames: Record<string, SignatureType> = {
  eoa: 0,
  proxy: 1,
  'proxy-wallet': 1,
  proxy_wallet: 1,
  safe: 2,
  'gnosis-safe': 2,
  gnosis_safe: 2,
};

/** The order of secp256k1: valid private keys are 1 to n − 1. */
const secp256k1Order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

// Deriving the address is elliptic-curve work an order would repeat; one adapter instance keeps one credentials object.
const wallets = new WeakMap<Credentials, PrivateKeyAccount>();

/** The wallet key; AUTHENTICATION_ERROR naming the member when it is missing or not a key (never echoing it). */
export function walletOf(credentials: Credentials | undefined): PrivateKeyAccount {
  const { privateKey } = requireCredentials(credentials, ['privateKey'], venueId) as { privateKey: string };
  const trimmed = privateKey.trim();
  const hex = trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`;
  if (!isHex(hex) || hex.length !== 66 || BigInt(hex) === 0n || BigInt(hex) >= secp256k1Order) throw notAKey();
  let wallet = wallets.get(credentials!);
  if (!wallet) {
    try {
      wallet = privateKeyToAccount(hex);
    } catch {
      // The library's message would quote the key.
      throw notAKey();
    }
    wallets.set(credentials!, wallet);
  }
  return wallet;
}

/** The signature type the credentials name; unset, 0 (the key's own wallet holds the funds). */
export function signatureTypeOf(credentials: Credentials | undefined): SignatureType {
  const value = credentials?.signatureType;
  if (value === undefined || value === '') return 0;
  const named = typeof value === 'string' ? (signatureTypeNames[value.trim().toLowerCase()] ?? Number(value)) : value;
  if (named === 0 || named === 1 || named === 2) return named;
  throw new PredgateError(
    'AUTHENTICATION_ERROR',
    `${venueId}: credentials.signatureType must be 0, 1, 2 or one of ${Object.keys(signatureTypeNames).join(', ')}`,
    {
      exchange: venueId,
      detail: { member: 'signatureType', allowed: [0, 1, 2, ...Object.keys(signatureTypeNames)] },
    },
  );
}

export interface TradingAccount {
  wallet: PrivateKeyAccount;
  /** The order's `signer`: the key's address. */
  signer: Address;
  /** The order's `maker` and the placement's `owner`: where the funds are. */
  maker: Address;
  signatureType: SignatureType;
}

/** Everything order signing needs; MISSING_WALLET_ADDRESS when a proxy or Safe comes without its address. */
export function tradingAccountOf(credentials: Credentials | undefined): TradingAccount {
  const wallet = walletOf(credentials);
  const signatureType = signatureTypeOf(credentials);
  if (signatureType === 0) return { wallet, signer: wallet.address, maker: wallet.address, signatureType };
  const funder = credentials?.funderAddress;
  if (!funder) {
    throw new PredgateError(
      'MISSING_WALLET_ADDRESS',
      `${venueId}: signature type ${signatureType} trades for a proxy wallet: set credentials.funderAddress to its address`,
      { exchange: venueId, detail: { member: 'funderAddress', signatureType } },
    );
  }
  if (!isAddress(funder, { strict: false })) {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: credentials.funderAddress must be a 0x-prefixed 20-byte address`, {
      exchange: venueId,
      detail: { member: 'funderAddress' },
    });
  }
  return { wallet, signer: wallet.address, maker: getAddress(funder.toLowerCase()), signatureType };
}

function notAKey(): PredgateError {
  return new PredgateError('AUTHENTICATION_ERROR', `${venueId}: credentials.privateKey must be a 32-byte hex key on secp256k1`, {
    exchange: venueId,
    detail: { member: 'privateKey' },
  });
}
