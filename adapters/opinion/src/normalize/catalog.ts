import { compact, complement, pick, text, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome } from '@predgate/core';
import type { RawChildMarket, RawMarket } from '../api/schemas.js';
import { venue } from '../venue.js';

/** Opinion's market states (1 Created … 6 Deleted) in the unified vocabulary. */
const statuses: Record<number, MarketStatus> = { 1: 'inactive', 2: 'active', 3: 'closed', 4: 'resolved', 5: 'closed', 6: 'archived' };

const metadataKeys = [
  'marketType',
  'status',
  'statusEnum',
  'conditionId',
  'questionId',
  'quoteToken',
  'chainId',
  'createdAt',
  'resolvedAt',
  'resultTokenId',
  'volume7d',
  'labelIds',
  'collection',
];

export function marketUrl(raw: Pick<RawChildMarket, 'slug' | 'marketId'>): string {
  return `https://www.opinion.trade/market/${encodeURIComponent(text(raw.slug) ?? String(raw.marketId))}`;
}

/** Epoch seconds as ISO text; 0 is Opinion's "not set". */
function isoFromSeconds(seconds: number | null | undefined): string | undefined {
  return seconds ? toIsoDate(seconds) : undefined;
}

/**
 * A categorical parent is an event of its child markets; a binary market is
 * an event of its own, under the same id, so every market has an event and
 * `fetchEvent` accepts either kind of id.
 */
export function toEvent(raw: RawMarket): Event {
  const labels = (raw.labels ?? []).filter((label) => label !== '');
  return compact({
    id: String(raw.marketId),
    title: raw.marketTitle,
    description: raw.rules ?? '',
    slug: text(raw.slug) ?? '',
    url: marketUrl(raw),
    markets: marketsOf(raw),
    volume24h: toNumber(raw.volume24h) ?? 0,
    volume: toNumber(raw.volume),
    category: labels[0],
    tags: labels.length > 0 ? labels : undefined,
    sourceExchange: venue,
    sourceMetadata: pick(raw, metadataKeys),
  });
}

/**
 * A binary market, or a categorical child with its parent: the child's title
 * alone ("Below $80,000") needs the parent's question to make sense, its
 * missing cutoff is the parent's, and its labels are the parent's.
 */
export function toMarket(raw: RawChildMarket & Partial<RawMarket>, parent?: RawMarket): Market {
  const marketId = String(raw.marketId);
  const labels = (parent?.labels ?? raw.labels ?? []).filter((label) => label !== '');
  const outcome = (outcomeId: string, label: string | null | undefined, fallback: string): Outcome => ({ outcomeId, marketId, label: text(label) ?? fallback });
  return withBinaryRefs(
    compact({
      marketId,
      eventId: parent ? String(parent.marketId) : marketId,
      title: parent ? `${parent.marketTitle} - ${raw.marketTitle}` : raw.marketTitle,
      description: raw.rules ?? '',
      slug: text(raw.slug),
      url: marketUrl(parent ?? raw),
      outcomes: [outcome(raw.yesTokenId, raw.yesLabel, 'Yes'), outcome(raw.noTokenId, raw.noLabel, 'No')],
      volume24h: parent ? childVolume24h(raw, parent) : (toNumber(raw.volume24h) ?? 0),
      volume: toNumber(raw.volume),
      // Opinion publishes no liquidity figure.
      liquidity: 0,
      resolutionDate: isoFromSeconds(raw.cutoffAt) ?? isoFromSeconds(parent?.cutoffAt),
      status: statuses[raw.status],
      contractAddress: text(raw.conditionId),
      category: labels[0],
      tags: labels.length > 0 ? labels : undefined,
      sourceExchange: venue,
      sourceMetadata: compact({
        ...pick(raw, metadataKeys),
        ...winnerOf(raw),
        parentMarketId: parent ? Number(parent.marketId) : undefined,
        volume24hEstimated: parent ? true : undefined,
      }),
    }),
  );
}

/**
 * A resolved market names its winning token (`resultTokenId`): the winner's
 * label and outcome id go in `sourceMetadata`; `priceMarkets` prices it 1, the
 * other side 0. A market resolved without a token of its own names none.
 */
function winnerOf(raw: RawChildMarket): { winner?: string; winningOutcomeId?: string } {
  const token = text(raw.resultTokenId);
  if (statuses[raw.status] !== 'resolved' || !token) return {};
  if (token === raw.yesTokenId) return { winner: text(raw.yesLabel) ?? 'Yes', winningOutcomeId: token };
  if (token === raw.noTokenId) return { winner: text(raw.noLabel) ?? 'No', winningOutcomeId: token };
  return {};
}

/**
 * Children carry no 24h volume: the parent's is shared out by each child's
 * share of the parent's total volume, an estimate marked in `sourceMetadata`.
 */
function childVolume24h(child: RawChildMarket, parent: RawMarket): number {
  const parent24h = toNumber(parent.volume24h) ?? 0;
  const total = (parent.childMarkets ?? []).reduce((sum, each) => sum + (toNumber(each.volume) ?? 0), 0);
  if (parent24h === 0 || total === 0) return 0;
  return Math.round((parent24h * (toNumber(child.volume) ?? 0) * 100) / total) / 100;
}

/** A categorical parent: its outcomes are its children's, it has no tokens of its own. */
export function isCategorical(raw: RawMarket): boolean {
  return raw.marketType === 1 || (raw.childMarkets?.length ?? 0) > 0;
}

/** The binary markets an Opinion listing item stands for: itself, or its children. */
export function marketsOf(raw: RawMarket): Market[] {
  return isCategorical(raw) ? (raw.childMarkets ?? []).map((child) => toMarket(child, raw)) : [toMarket(raw)];
}

/** The YES token's price as both outcomes' prices (NO is its complement); a market without one keeps none. */
export function withYesPrice(market: Market, yesPrice: number | undefined): Market {
  if (yesPrice === undefined || market.outcomes.length !== 2) return market;
  const [yes, no] = market.outcomes as [Outcome, Outcome];
  return withBinaryRefs({
    ...market,
    outcomes: [
      { ...yes, price: yesPrice },
      { ...no, price: complement(yesPrice) },
    ],
  });
}
