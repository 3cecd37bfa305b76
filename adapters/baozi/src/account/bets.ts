import { PredgateError, invalidArgument, missingCredentials } from '@predgate/core';
import type { CreateOrderParams, Order } from '@predgate/core';
import { base58Decode, base58Encode, findProgramAddress, keypairOf, publicKeyBytes, signedTransaction, u64Seed } from '../auth/solana.js';
import { programId, venueId } from '../venue.js';
import type { BaoziContext } from '../context.js';
import { invalidOrder, notAMarket } from '../errors.js';
import { betOf } from '../normalize/bets.js';
import { betInstructions, parseOutcomeId, sol, statusOf } from '../normalize/markets.js';
import type { RawMarket } from '../normalize/markets.js';
import { lookup } from '../reads/markets.js';
import { walletOf } from './wallet.js';

/*
 * Bets: a SOL stake signed and sent in one step (a built Solana transaction
 * expires with its blockhash), and read back from its transaction.
 */

/** The venue's advertised bet size limits, in SOL. */
const minBet = 0.01;
const maxBet = 100;
const systemProgram = new Uint8Array(32);
const seed = (text: string) => new TextEncoder().encode(text);
const programKey = publicKeyBytes(programId)!;
const configAddress = publicKeyBytes(findProgramAddress([seed('config')], programKey))!;

export async function createOrder(ctx: BaoziContext, params: CreateOrderParams): Promise<Order> {
  const secret = ctx.credentials?.privateKey;
  if (!secret) throw missingCredentials(venueId, ['privateKey']);
  const payer = keypairOf(String(secret));
  if (!payer) throw invalidArgument('credentials.privateKey', `${venueId} privateKey must be a base58 64-byte Solana secret key`);
  if (params.side !== 'buy') throw invalidOrder('a pari-mutuel stake can only be placed (side buy); it cannot be sold');
  if (params.type !== 'market' || params.price !== undefined) {
    throw invalidOrder('a pari-mutuel bet has no price: the payout is set by the final pools, so only market orders without a price are placed');
  }
  const lamports = lamportsOf(params.amount);
  const target = parseOutcomeId(params.outcomeId);
  if (!target) throw invalidArgument('params.outcomeId', `${venueId} outcome ids are <market address>-YES, -NO or -<index>`);
  if (target.market !== params.marketId) throw invalidArgument('params.marketId', `outcome ${params.outcomeId} is not an outcome of market ${params.marketId}`);
  const market = await lookup(ctx, target.market, 'market');
  if (!market) throw notAMarket(target.market, 'market', `no market lives at ${target.market}`);
  const outcome =
    market.kind === 'boolean'
      ? target.side === 'YES'
        ? 1
        : target.side === 'NO'
          ? 0
          : undefined
      : typeof target.side === 'number' && target.side < market.labels.length
        ? target.side
        : undefined;
  if (outcome === undefined) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `${venueId}: market ${market.pubkey} has no outcome ${params.outcomeId.slice(0, 80)}`, {
      detail: { outcomeId: params.outcomeId.slice(0, 80) },
    });
  }
  if (statusOf(market, ctx.now()) !== 'active') throw invalidOrder(`market ${market.pubkey} is not open for betting (${statusName(market)})`);
  if (market.accessGate !== 0) throw invalidOrder(`market ${market.pubkey} is an invite-only pool: betting on it needs an invite this adapter does not hold`);

  const position = findProgramAddress(
    [seed(market.kind === 'boolean' ? 'position' : 'race_position'), u64Seed(market.marketIdNum), payer.publicKey],
    programKey,
  );
  const data = new Uint8Array(17);
  data.set(market.kind === 'boolean' ? betInstructions.boolean : betInstructions.race, 0);
  data[8] = outcome;
  new DataView(data.buffer).setBigUint64(9, lamports, true);
  const blockhash = publicKeyBytes(await ctx.rpc.latestBlockhash())!;
  // Accounts as the program takes them: config, market, position, the program itself (no affiliate), the bettor, the system program.
  const { wire, signature } = signedTransaction({
    payer,
    programId: programKey,
    accounts: [
      { pubkey: configAddress, signer: false, writable: false },
      { pubkey: publicKeyBytes(market.pubkey)!, signer: false, writable: true },
      { pubkey: publicKeyBytes(position)!, signer: false, writable: true },
      { pubkey: programKey, signer: false, writable: false },
      { pubkey: payer.publicKey, signer: true, writable: true },
      { pubkey: systemProgram, signer: false, writable: false },
    ],
    data,
    recentBlockhash: blockhash,
  });
  const sent = await ctx.rpc.sendTransaction(Buffer.from(wire).toString('base64'));
  const id = base58Encode(signature);
  if (sent !== id) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: the RPC answered sendTransaction with a signature that is not the transaction's`, {
      detail: { endpoint: 'sendTransaction', field: 'result', drift: true, signature: id },
    });
  }
  const amount = sol(lamports);
  // Sent and passed preflight; it fills when it lands (fetchOrder by this id tells).
  return {
    id,
    marketId: market.pubkey,
    outcomeId: params.outcomeId,
    side: 'buy',
    type: 'market',
    amount,
    status: 'pending',
    filled: 0,
    remaining: amount,
    timestamp: ctx.now(),
  };
}

export async function fetchOrder(ctx: BaoziContext, orderId: string): Promise<Order> {
  const wallet = walletOf(ctx, undefined);
  const signature = base58Decode(orderId);
  if (signature?.length !== 64) throw invalidArgument('orderId', `${venueId} order ids are transaction signatures (base58, 64 bytes)`);
  const transaction = await ctx.rpc.transaction(orderId);
  const order = transaction && betOf(orderId, transaction);
  // Only the caller's own bets: the fee payer and signer is the first account.
  if (!order || transaction.transaction.message.accountKeys[0] !== wallet) {
    throw new PredgateError('ORDER_NOT_FOUND', `${venueId}: no bet of ${wallet} in transaction ${orderId}`, { detail: { orderId } });
  }
  return order;
}

/** SOL to lamports exactly: at most 9 decimals, within the venue's bet limits. */
function lamportsOf(amount: number): bigint {
  if (amount < minBet || amount > maxBet) throw invalidOrder(`a bet is ${minBet} to ${maxBet} SOL (got ${amount})`);
  const fixed = amount.toFixed(9);
  if (Number(fixed) !== amount) throw invalidArgument('params.amount', `${venueId} amounts are SOL with at most 9 decimals (lamports)`);
  return BigInt(fixed.replace('.', ''));
}

function statusName(raw: RawMarket): string {
  return raw.status === 0
    ? 'betting closed at its closing time'
    : (['active', 'closed', 'resolved', 'cancelled', 'paused', 'resolved pending', 'disputed'][raw.status] ?? `status ${raw.status}`);
}
