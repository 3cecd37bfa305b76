import { PredgateError, requireCredentials } from '@predgate/core';
import type { Credentials } from '@predgate/core';
import { getAddress, isAddress, isHex } from 'viem';
import type { Address, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { venueId } from '../venue.js';

/**
 * Who trades: the key that signs, the address that holds the funds (the
 * order's `maker`) and how the exchange is to check the signature.
 */

/** 0 EOA, 1 POLY_PROXY (Magic/email proxy), 2 POLY_GNOSIS_SAFE (browser wallets), 3 POLY_1271 (deposit wallet). */
export type SignatureType = 0 | 1 | 2 | 3;

/** Names pmxt clients send instead of numbers. */
const signatureTypeNames: Record<string, SignatureType> = {
  eoa: 0,
  polyproxy: 1,
  poly_proxy: 1,
  gnosis_safe: 2,
  'gnosis-safe': 2,
  safe: 2,
  poly1271: 3,
  poly_1271: 3,
  deposit_wallet: 3,
  'deposit-wallet': 3,
};

/**
 * The signature type the credentials name. Unset, it is 0 (the key holds the
 * funds) unless a funder address is given, which means a proxy account: then
 * 2, the Safe that browser-wallet accounts have used since 2023 (pmxt's default).
 */
export function signatureTypeOf(credentials: Credentials): SignatureType {
  const value = credentials.signatureType;
  if (value === undefined || value === '') return credentials.funderAddress ? 2 : 0;
  const named = typeof value === 'string' ? (signatureTypeNames[value.trim().toLowerCase()] ?? Number(value)) : value;
  if (named === 0 || named === 1 || named === 2 || named === 3) return named;
  throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: credentials.signatureType must be 0-3 or one of ${Object.keys(signatureTypeNames).join(', ')}`, {
    exchange: venueId,
    detail: { member: 'signatureType', allowed: [0, 1, 2, 3, ...Object.keys(signatureTypeNames)] },
  });
}

// Deriving the address is elliptic-curve work that one order would otherwise repeat several times; an
// adapter instance keeps one credentials object for its life.
const wallets = new WeakMap<Credentials, PrivateKeyAccount>();

/** The wallet key; AUTHENTICATION_ERROR naming the member when it is missing or not a key (never echoing it). */
export function walletOf(credentials: Credentials | undefined): PrivateKeyAccount {
  const { privateKey } = requireCredentials(credentials, ['privateKey'], venueId) as { privateKey: string };
  const hex = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  // A key of the right length can still be no key: zero, or at or past the curve's order.
  if (!isHex(hex) || hex.length !== 66 || BigInt(hex) === 0n || BigInt(hex) >= secp256k1Order) {
    throw notAKey();
  }
  let wallet = wallets.get(credentials!);
  if (!wallet) {
    try {
      wallet = privateKeyToAccount(hex);
    } catch {
      // The library's message quotes the key.
      throw notAKey();
    }
    wallets.set(credentials!, wallet);
  }
  return wallet;
}

/** The order of secp256k1: valid private keys are 1 to n − 1. */
const secp256k1Order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function notAKey(): PredgateError {
  return new PredgateError('AUTHENTICATION_ERROR', `${venueId}: credentials.privateKey must be a 32-byte hex key on secp256k1`, {
    exchange: venueId,
    detail: { member: 'privateKey' },
  });
}

function funderOf(credentials: Credentials): Address | undefined {
  const funder = credentials.funderAddress;
  if (funder === undefined || funder === '') return undefined;
  if (!isAddress(funder, { strict: false })) {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: credentials.funderAddress must be an EVM address`, {
      exchange: venueId,
      detail: { member: 'funderAddress' },
    });
  }
  return getAddress(funder);
}

export interface TradingAccount {
  wallet: PrivateKeyAccount;
  /** The order's `signer`: the key's address, or the deposit wallet for type 3. */
  signer: Address;
  /** The order's `maker`: where the funds are. */
  maker: Address;
  signatureType: SignatureType;
}

/** Everything order signing needs; MISSING_WALLET_ADDRESS when a proxy account comes without its funder address. */
export function tradingAccountOf(credentials: Credentials | undefined): TradingAccount {
  const wallet = walletOf(credentials);
  const signatureType = signatureTypeOf(credentials!);
  if (signatureType === 0) return { wallet, signer: wallet.address, maker: wallet.address, signatureType };
  const funder = funderOf(credentials!);
  if (!funder) {
    throw new PredgateError(
      'MISSING_WALLET_ADDRESS',
      `${venueId}: signature type ${signatureType} trades for a proxy wallet: set credentials.funderAddress to its address`,
      { exchange: venueId, detail: { member: 'funderAddress', signatureType } },
    );
  }
  // A deposit wallet (ERC-1271) is both maker and signer; the key signs on its behalf.
  return { wallet, signer: signatureType === 3 ? funder : wallet.address, maker: funder, signatureType };
}

/** The address that holds the account's funds and positions: the funder, else the key's own address. */
export function fundsAddressOf(credentials: Credentials | undefined): Address {
  return (credentials && funderOf(credentials)) ?? walletOf(credentials).address;
}
