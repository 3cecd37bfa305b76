import { compact, fromBaseUnits, toIsoDate, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome } from '@predgate/core';
import { BorshReader, accountDiscriminator, base58Encode, instructionDiscriminator } from '../auth/solana.js';
import { venueId } from '../venue.js';
export const lamportsPerSol = 9;

/** Anchor discriminators (sha256("account:<Name>")[0..8]) of the accounts read here. */
export const discriminators = {
  market: accountDiscriminator('Market'),
  raceMarket: accountDiscriminator('RaceMarket'),
  userPosition: accountDiscriminator('UserPosition'),
  racePosition: accountDiscriminator('RacePosition'),
};
/** The same in base58, for `memcmp` filters at offset 0. */
export const discriminatorFilters = {
  market: base58Encode(discriminators.market),
  raceMarket: base58Encode(discriminators.raceMarket),
  userPosition: base58Encode(discriminators.userPosition),
  racePosition: base58Encode(discriminators.racePosition),
};

/** The bet instructions: data = discriminator ‖ outcome u8 ‖ amount u64 LE (lamports). */
export const betInstructions = {
  boolean: instructionDiscriminator('place_bet_sol'),
  race: instructionDiscriminator('bet_on_race_outcome_sol'),
};

const statusNames = ['active', 'closed', 'resolved', 'cancelled', 'paused', 'resolved_pending', 'disputed'] as const;
const layerNames = ['official', 'lab', 'private'] as const;

interface RawCommon {
  pubkey: string;
  marketIdNum: bigint;
  question: string;
  closingTime: bigint;
  resolutionTime: bigint;
  status: number;
  currencyType: number;
  lastBetTime: bigint;
  layer: number;
  accessGate: number;
  creator: string;
  oracleHost?: string;
  creatorFeeBps: number;
  platformFeeBpsAtCreation: number;
}

export interface RawBooleanMarket extends RawCommon {
  kind: 'boolean';
  yesPool: bigint;
  noPool: bigint;
  /** true: YES won. */
  winningOutcome?: boolean;
  invite: boolean;
  hasBets: boolean;
}

export interface RawRaceMarket extends RawCommon {
  kind: 'race';
  labels: string[];
  pools: bigint[];
  totalPool: bigint;
  /** Index of the winning outcome. */
  winningOutcome?: number;
}

export type RawMarket = RawBooleanMarket | RawRaceMarket;

export interface RawUserPosition {
  kind: 'boolean';
  marketIdNum: bigint;
  yes: bigint;
  no: bigint;
  claimed: boolean;
}

export interface RawRacePosition {
  kind: 'race';
  marketIdNum: bigint;
  bets: bigint[];
  claimed: boolean;
}

/** Which account type the data's first 8 bytes name, or undefined for any other (a Measurement market, a config, ...). */
export function accountKind(data: Buffer): keyof typeof discriminators | undefined {
  const head = data.subarray(0, 8);
  return (Object.keys(discriminators) as Array<keyof typeof discriminators>).find((kind) => head.length === 8 && head.equals(discriminators[kind]));
}

/** Hex of an account's discriminator, for errors and logs. */
export const discriminatorHex = (data: Buffer) => data.subarray(0, 8).toString('hex');

/** A boolean `Market` account, read field by field in the program's order; trailing fields and padding are ignored. */
export function decodeBooleanMarket(pubkey: string, data: Buffer): RawBooleanMarket {
  const r = new BorshReader(data);
  r.skip('discriminator', 8);
  const marketIdNum = r.u64('market_id');
  const question = r.string('question');
  const closingTime = r.i64('closing_time');
  const resolutionTime = r.i64('resolution_time');
  r.skip('auto_stop_buffer', 8);
  const yesPool = r.u64('yes_pool');
  const noPool = r.u64('no_pool');
  r.skip('snapshot_yes_pool', 8);
  r.skip('snapshot_no_pool', 8);
  const status = r.u8('status');
  const winningOutcome = r.option('winning_outcome', () => r.bool('winning_outcome'));
  const currencyType = r.u8('currency_type');
  r.skip('_reserved_usdc_vault', 33);
  r.skip('creator_bond', 8);
  r.skip('total_claimed', 8);
  r.skip('platform_fee_collected', 8);
  const lastBetTime = r.i64('last_bet_time');
  r.skip('bump', 1);
  const layer = r.u8('layer');
  r.skip('resolution_mode', 1);
  const accessGate = r.u8('access_gate');
  const creator = r.publicKey('creator');
  const oracleHost = r.option('oracle_host', () => r.publicKey('oracle_host'));
  r.skip('council', 160);
  r.skip('council_size, council_votes_yes, council_votes_no, council_threshold', 4);
  r.skip('total_affiliate_fees', 8);
  const invite = r.option('invite_hash', () => (r.skip('invite_hash', 32), true)) ?? false;
  const creatorFeeBps = r.u16('creator_fee_bps');
  r.skip('total_creator_fees', 8);
  r.option('creator_profile', () => r.skip('creator_profile', 32));
  const platformFeeBpsAtCreation = r.u16('platform_fee_bps_at_creation');
  r.skip('affiliate_fee_bps_at_creation', 2);
  r.skip('betting_freeze_seconds_at_creation', 8);
  const hasBets = r.bool('has_bets');
  return {
    kind: 'boolean',
    pubkey,
    marketIdNum,
    question,
    closingTime,
    resolutionTime,
    yesPool,
    noPool,
    status,
    ...(winningOutcome === undefined ? {} : { winningOutcome }),
    currencyType,
    lastBetTime,
    layer,
    accessGate,
    creator,
    ...(oracleHost === undefined ? {} : { oracleHost }),
    invite,
    creatorFeeBps,
    platformFeeBpsAtCreation,
    hasBets,
  };
}

/** A `RaceMarket` account: 2 to 10 named outcomes, one pool each. */
export function decodeRaceMarket(pubkey: string, data: Buffer): RawRaceMarket {
  const r = new BorshReader(data);
  r.skip('discriminator', 8);
  const marketIdNum = r.u64('market_id');
  const question = r.string('question');
  const closingTime = r.i64('closing_time');
  const resolutionTime = r.i64('resolution_time');
  r.skip('auto_stop_buffer', 8);
  const outcomeCount = r.u8('outcome_count');
  if (outcomeCount < 2 || outcomeCount > 10) throw new RangeError(`outcome_count is ${outcomeCount}, outside 2..10`);
  const labels = Array.from({ length: 10 }, (_, index) => labelText(r.bytes(`outcome_labels[${index}]`, 32))).slice(0, outcomeCount);
  const pools = Array.from({ length: 10 }, (_, index) => r.u64(`outcome_pools[${index}]`)).slice(0, outcomeCount);
  const totalPool = r.u64('total_pool');
  r.skip('snapshot_pools', 80);
  r.skip('snapshot_total', 8);
  const status = r.u8('status');
  const winningOutcome = r.option('winning_outcome', () => r.u8('winning_outcome'));
  const currencyType = r.u8('currency_type');
  r.skip('platform_fee_collected', 8);
  r.skip('creator_fee_collected', 8);
  r.skip('total_claimed', 8);
  const lastBetTime = r.i64('last_bet_time');
  r.skip('bump', 1);
  const layer = r.u8('layer');
  r.skip('resolution_mode', 1);
  const accessGate = r.u8('access_gate');
  const creator = r.publicKey('creator');
  const oracleHost = r.option('oracle_host', () => r.publicKey('oracle_host'));
  r.skip('council', 160);
  r.skip('council_size', 1);
  r.skip('council_votes', 10);
  r.skip('council_threshold', 1);
  const creatorFeeBps = r.u16('creator_fee_bps');
  r.option('creator_profile', () => r.skip('creator_profile', 32));
  const platformFeeBpsAtCreation = r.u16('platform_fee_bps_at_creation');
  if (winningOutcome !== undefined && winningOutcome >= outcomeCount)
    throw new RangeError(`winning_outcome ${winningOutcome} is not one of ${outcomeCount} outcomes`);
  return {
    kind: 'race',
    pubkey,
    marketIdNum,
    question,
    closingTime,
    resolutionTime,
    labels,
    pools,
    totalPool,
    status,
    ...(winningOutcome === undefined ? {} : { winningOutcome }),
    currencyType,
    lastBetTime,
    layer,
    accessGate,
    creator,
    ...(oracleHost === undefined ? {} : { oracleHost }),
    creatorFeeBps,
    platformFeeBpsAtCreation,
  };
}

export function decodeUserPosition(data: Buffer): RawUserPosition {
  const r = new BorshReader(data);
  r.skip('discriminator', 8);
  r.skip('user', 32);
  return { kind: 'boolean', marketIdNum: r.u64('market_id'), yes: r.u64('yes_amount'), no: r.u64('no_amount'), claimed: r.bool('claimed') };
}

export function decodeRacePosition(data: Buffer): RawRacePosition {
  const r = new BorshReader(data);
  r.skip('discriminator', 8);
  r.skip('user', 32);
  const marketIdNum = r.u64('market_id');
  const bets = Array.from({ length: 10 }, (_, index) => r.u64(`bets[${index}]`));
  r.skip('total_bet', 8);
  return { kind: 'race', marketIdNum, bets, claimed: r.bool('claimed') };
}

/** SOL from lamports, exactly (the division is done on the digits). */
export const sol = (lamports: bigint): number => fromBaseUnits(lamports.toString(), lamportsPerSol)!;

/** Outcome ids: `<market>-YES`, `<market>-NO` on boolean markets, `<market>-<index>` on races. */
export function outcomeIdsOf(raw: RawMarket): string[] {
  return raw.kind === 'boolean' ? [`${raw.pubkey}-YES`, `${raw.pubkey}-NO`] : raw.labels.map((_, index) => `${raw.pubkey}-${index}`);
}

/** The market pubkey and outcome an outcome id names; undefined when it is not one. */
export function parseOutcomeId(id: string): { market: string; side: 'YES' | 'NO' | number } | undefined {
  const match = /^([1-9A-HJ-NP-Za-km-z]{32,44})-(YES|NO|\d)$/.exec(id);
  if (!match) return undefined;
  const side = match[2]!;
  return { market: match[1]!, side: side === 'YES' || side === 'NO' ? side : Number(side) };
}

export const poolsOf = (raw: RawMarket): bigint[] => (raw.kind === 'boolean' ? [raw.yesPool, raw.noPool] : raw.pools);
const totalOf = (raw: RawMarket): bigint => (raw.kind === 'boolean' ? raw.yesPool + raw.noPool : raw.totalPool);

/**
 * Outcome prices: the pari-mutuel implied probability, each pool's share of
 * the total (pool_i / total; pmxt inverts this). A pot of 0 has no price:
 * each is unknown, never 0 or NaN. A resolved market with a winner is priced
 * 1 for the winner and 0 for the others.
 */
export function pricesOf(raw: RawMarket): Array<number | undefined> {
  const pools = poolsOf(raw);
  const winner = winnerIndexOf(raw);
  if (winner !== undefined) return pools.map((_, index) => (index === winner ? 1 : 0));
  const total = totalOf(raw);
  return total === 0n ? pools.map(() => undefined) : pools.map((pool) => Math.min(1, Math.max(0, Number(pool) / Number(total))));
}

/** The status the unified model knows: betting stops at closing_time even while the account still says active. */
export function statusOf(raw: RawMarket, nowMs: number): MarketStatus | undefined {
  switch (raw.status) {
    case 0:
      return Number(raw.closingTime) * 1000 <= nowMs ? 'closed' : 'active';
    case 4:
      return 'inactive';
    case 2:
      return 'resolved';
    case 1:
    case 3:
    case 5:
    case 6:
      return 'closed';
    default:
      return undefined;
  }
}

const isoOf = (seconds: bigint) => (seconds > 0n ? toIsoDate(Number(seconds)) : undefined);

export function normalizeMarket(raw: RawMarket, nowMs: number): Market {
  const ids = outcomeIdsOf(raw);
  const prices = pricesOf(raw);
  const labels = raw.kind === 'boolean' ? ['Yes', 'No'] : raw.labels.map((label, index) => label || `Outcome ${index + 1}`);
  const outcomes: Outcome[] = ids.map((outcomeId, index) => compact({ outcomeId, marketId: raw.pubkey, label: labels[index]!, price: prices[index] }));
  const total = sol(totalOf(raw));
  const layer = layerNames[raw.layer] ?? `layer ${raw.layer}`;
  return withBinaryRefs(
    compact({
      marketId: raw.pubkey,
      eventId: raw.pubkey,
      slug: raw.pubkey,
      title: raw.question,
      description: '',
      url: `https://baozi.bet/market/${raw.pubkey}`,
      outcomes,
      resolutionDate: isoOf(raw.resolutionTime),
      // Pools only grow until resolution: what is staked is the volume, the liquidity and the open interest. No 24-hour figure exists on chain.
      volume24h: 0,
      volume: total,
      liquidity: total,
      openInterest: total,
      status: statusOf(raw, nowMs),
      // The chain files markets by tier (layer), not by topic: the Router's normalised "Other"; the layer is a tag.
      category: 'Other',
      tags: raw.kind === 'race' ? [layer, 'solana', 'pari-mutuel', 'race'] : [layer, 'solana', 'pari-mutuel'],
      contractAddress: raw.pubkey,
      sourceExchange: venueId,
      sourceMetadata: { ...sourceMetadataOf(raw, layer), ...winnerOf(raw) },
    }),
  );
}

/** Each market is an event of its own (the chain has no grouping). */
export function normalizeEvent(raw: RawMarket, nowMs: number): Event {
  const market = normalizeMarket(raw, nowMs);
  return compact({
    id: market.marketId,
    title: market.title,
    description: market.description,
    slug: market.slug!,
    url: market.url,
    markets: [market],
    volume24h: market.volume24h,
    volume: market.volume,
    category: market.category,
    tags: market.tags,
    sourceExchange: venueId,
    sourceMetadata: market.sourceMetadata,
  });
}

/** The index of a resolved market's winning outcome (a boolean market's YES is outcome 0), if the venue names one. */
function winnerIndexOf(raw: RawMarket): number | undefined {
  if (raw.status !== 2 || raw.winningOutcome === undefined) return undefined;
  return raw.kind === 'boolean' ? (raw.winningOutcome ? 0 : 1) : raw.winningOutcome;
}

/** The winning outcome of a resolved market, named the same way in every adapter. */
function winnerOf(raw: RawMarket): { winningOutcomeId?: string } {
  const winner = winnerIndexOf(raw);
  const id = winner === undefined ? undefined : outcomeIdsOf(raw)[winner];
  return id === undefined ? {} : { winningOutcomeId: id };
}

function sourceMetadataOf(raw: RawMarket, layer: string): Record<string, unknown> {
  const common = {
    kind: raw.kind,
    marketIdNum: raw.marketIdNum.toString(),
    status: statusNames[raw.status] ?? `unknown (${raw.status})`,
    layer,
    closingTime: isoOf(raw.closingTime),
    lastBetTime: isoOf(raw.lastBetTime),
    accessGate: raw.accessGate,
    creator: raw.creator,
    oracleHost: raw.oracleHost,
    creatorFeeBps: raw.creatorFeeBps,
    platformFeeBpsAtCreation: raw.platformFeeBpsAtCreation,
    currency: 'SOL',
  };
  if (raw.kind === 'boolean') {
    return compact({
      ...common,
      yesPoolLamports: raw.yesPool.toString(),
      noPoolLamports: raw.noPool.toString(),
      winningOutcome: raw.winningOutcome === undefined ? undefined : raw.winningOutcome ? 'YES' : 'NO',
      inviteOnly: raw.invite || undefined,
      hasBets: raw.hasBets,
    });
  }
  return compact({
    ...common,
    outcomePoolsLamports: raw.pools.map(String),
    totalPoolLamports: raw.totalPool.toString(),
    winningOutcome: raw.winningOutcome,
  });
}

/** A race label: 32 bytes of UTF-8, NUL-padded; a character cut at the 32nd byte is dropped, not shown as U+FFFD. */
function labelText(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  const used = end === -1 ? bytes : bytes.subarray(0, end);
  return new TextDecoder('utf-8', { fatal: false })
    .decode(used)
    .replace(/\uFFFD+$/, '')
    .trim();
}
