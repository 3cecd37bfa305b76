import { PredgateError } from '@predgate/core';
import type { RawAccount } from '../api/schemas.js';
import { programId, venueId } from '../venue.js';
import { layoutDrift } from '../errors.js';
import { accountKind, decodeBooleanMarket, decodeRaceMarket, discriminatorHex } from './markets.js';
import type { RawMarket } from './markets.js';

export type Decoded =
  | { market: RawMarket }
  | { reason: 'owner' | 'other' | 'position' | 'currency'; message: string }
  | { reason: 'layout'; message: string; error: PredgateError };

/**
 * An account as a market, or why it is not one. The owner and the 8-byte
 * discriminator decide; anything else (a Measurement "Type B" market, a
 * config, a position) is never decoded with a market's layout.
 */
export function decodeMarket(pubkey: string, account: RawAccount): Decoded {
  if (account.owner !== programId) return { reason: 'owner', message: `${pubkey} is not a Baozi account (its owner is ${account.owner})` };
  const data = Buffer.from(account.data[0], 'base64');
  const kind = accountKind(data);
  if (kind === 'userPosition' || kind === 'racePosition') return { reason: 'position', message: `${pubkey} is a Baozi position account, not a market` };
  if (kind !== 'market' && kind !== 'raceMarket') {
    return {
      reason: 'other',
      message: `${pubkey} is a Baozi account of another type (discriminator ${discriminatorHex(data)}), not a boolean or race market; Measurement (Type B) markets are not read by Predgate`,
    };
  }
  let market: RawMarket;
  try {
    market = kind === 'market' ? decodeBooleanMarket(pubkey, data) : decodeRaceMarket(pubkey, data);
  } catch (error) {
    return { reason: 'layout', message: String(error), error: layoutDrift(pubkey, kind === 'market' ? 'Market' : 'RaceMarket', error) };
  }
  // currency_type 0 is SOL; USDC pools are reserved in the layout but not live, and their amounts would not be lamports.
  if (market.currencyType !== 0) return { reason: 'currency', message: `${pubkey} is not a SOL market (currency_type ${market.currencyType})` };
  return { market };
}

export function decodePosition<T>(pubkey: string, account: RawAccount, kind: 'userPosition' | 'racePosition', decode: (data: Buffer) => T): T {
  const data = Buffer.from(account.data[0], 'base64');
  const name = kind === 'userPosition' ? 'UserPosition' : 'RacePosition';
  if (account.owner !== programId || accountKind(data) !== kind) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: the RPC answered a ${name} query with ${pubkey}, which is not one`, {
      detail: {
        account: pubkey,
        item: pubkey,
        field: account.owner !== programId ? 'owner' : 'discriminator',
        discriminator: discriminatorHex(data),
        drift: true,
      },
    });
  }
  try {
    return decode(data);
  } catch (error) {
    throw layoutDrift(pubkey, name, error);
  }
}
