import { PredgateError } from '@predgate/core';
import type { Order } from '@predgate/core';
import type { RawTransaction } from '../api/schemas.js';
import { base58Decode } from '../auth/solana.js';
import { programId, venueId } from '../venue.js';
import { betInstructions, sol } from './markets.js';

/**
 * The bet a transaction placed: the program's place_bet_sol or
 * bet_on_race_outcome_sol instruction, its market (second account), outcome
 * and amount; undefined when it placed none.
 */
export function betOf(signature: string, transaction: RawTransaction): Order | undefined {
  const { message } = transaction.transaction;
  const loaded = transaction.meta?.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  for (const instruction of message.instructions) {
    if (keys[instruction.programIdIndex] !== programId) continue;
    const data = base58Decode(instruction.data);
    if (!data || data.length < 17) continue;
    const head = Buffer.from(data.subarray(0, 8));
    const kind = head.equals(betInstructions.boolean) ? 'boolean' : head.equals(betInstructions.race) ? 'race' : undefined;
    const market = keys[instruction.accounts[1] ?? -1];
    if (!kind || !market) continue;
    const outcome = data[8]!;
    if (kind === 'boolean' && outcome > 1) continue;
    const lamports = Buffer.from(data).readBigUInt64LE(9);
    if (lamports === 0n) continue;
    const amount = sol(lamports);
    if (transaction.blockTime === null) {
      throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: transaction ${signature} has no blockTime`, {
        detail: { endpoint: 'getTransaction', field: 'result.blockTime', drift: true },
      });
    }
    const filled = transaction.meta !== null && (transaction.meta.err === null || transaction.meta.err === undefined);
    return {
      id: signature,
      marketId: market,
      outcomeId: kind === 'boolean' ? `${market}-${outcome === 1 ? 'YES' : 'NO'}` : `${market}-${outcome}`,
      side: 'buy',
      type: 'market',
      amount,
      status: filled ? 'filled' : 'rejected',
      filled: filled ? amount : 0,
      remaining: 0,
      timestamp: transaction.blockTime * 1000,
      ...(transaction.meta ? { fee: sol(BigInt(transaction.meta.fee)) } : {}),
    };
  }
  return undefined;
}
