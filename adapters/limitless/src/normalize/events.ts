import { compact, complement, percentToFraction, text, toFraction, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus } from '@predgate/core';
import type { RawMarket } from '../api/schemas.js';
import type { OutcomeIds } from '../ids.js';
import { venueId } from '../venue.js';
import { ammOutcomeId } from '../ids.js';

const labels = ['Yes', 'No'] as const;

const marketUrl = (slug: string) => `https://limitless.exchange/markets/${encodeURIComponent(slug)}`;

export function isAmm(raw: RawMarket): boolean {
  return !raw.tokens && raw.tradeType === 'amm';
}

/** A CLOB market's YES and NO token ids, as text whichever way the venue sent them. */
export function tokenIds(raw: RawMarket): OutcomeIds | undefined {
  return raw.tokens ? [String(raw.tokens.yes), String(raw.tokens.no)] : undefined;
}

/** A group is an event of its child markets; any other market is an event of its own. */
export function normalizeEvent(raw: RawMarket): Event {
  const markets =
    raw.tradeType === 'group' || raw.marketType === 'group' ? (raw.markets ?? []).map((child) => normalizeMarket(child, raw)) : [normalizeMarket(raw)];
  const volumes = markets.map((market) => market.volume ?? 0);
  return compact({
    id: raw.slug,
    title: text(raw.title) ?? raw.slug,
    description: text(raw.description) ?? '',
    slug: raw.slug,
    url: marketUrl(raw.slug),
    image: text(raw.logo),
    markets,
    // The API publishes no 24-hour volume; `volume` is lifetime USDC.
    volume24h: 0,
    volume: toNumber(raw.volumeFormatted) ?? volumes.reduce((sum, volume) => sum + volume, 0),
    category: raw.categories?.[0],
    tags: raw.tags && raw.tags.length > 0 ? raw.tags : undefined,
    sourceExchange: venueId,
    sourceMetadata: compact({ id: raw.id ?? undefined, tradeType: raw.tradeType ?? undefined, status: raw.status ?? undefined }),
  });
}

/**
 * A binary market: YES and NO, their CLOB token ids as outcome ids (AMM
 * markets, which have none, get `<slug>:yes|no`). Listing prices can come as
 * percent (`[42.8, 57.2]` on AMM markets): both are read as percent when
 * either is above 1. A resolved market's prices are its result.
 */
export function normalizeMarket(raw: RawMarket, parent?: RawMarket): Market {
  const marketId = raw.slug;
  const [yes, no] = pricesOf(raw);
  const ids = tokenIds(raw) ?? [ammOutcomeId(marketId, 'yes'), ammOutcomeId(marketId, 'no')];
  const winner = raw.winningOutcomeIndex === 0 || raw.winningOutcomeIndex === 1 ? raw.winningOutcomeIndex : undefined;
  return withBinaryRefs(
    compact({
      marketId,
      eventId: parent?.slug ?? marketId,
      title: text(raw.title) ?? marketId,
      description: text(raw.description) ?? '',
      slug: marketId,
      url: marketUrl(parent?.slug ?? marketId),
      outcomes: [compact({ outcomeId: ids[0], marketId, label: labels[0], price: yes }), compact({ outcomeId: ids[1], marketId, label: labels[1], price: no })],
      resolutionDate: toIsoDate(raw.expirationTimestamp),
      volume24h: 0,
      volume: toNumber(raw.volumeFormatted),
      liquidity: toNumber(raw.liquidityFormatted) ?? 0,
      tickSize: isAmm(raw) ? undefined : 0.001,
      status: statusOf(raw),
      category: raw.categories?.[0] ?? parent?.categories?.[0],
      tags: raw.tags && raw.tags.length > 0 ? raw.tags : undefined,
      contractAddress: text(raw.address),
      sourceExchange: venueId,
      sourceMetadata: compact({
        id: raw.id ?? undefined,
        tradeType: raw.tradeType ?? undefined,
        status: raw.status ?? undefined,
        negRisk: raw.negRiskRequestId ? true : undefined,
        exchange: raw.venue?.exchange ?? undefined,
        group: parent?.slug,
        // Who won, as the venue says it (`winningOutcomeIndex`: 0 YES, 1 NO).
        winningOutcomeIndex: winner,
        winner: winner === undefined ? undefined : labels[winner],
        winningOutcomeId: winner === undefined ? undefined : ids[winner],
      }),
    }),
  );
}

function pricesOf(raw: RawMarket): [number | undefined, number | undefined] {
  if (raw.winningOutcomeIndex === 0) return [1, 0];
  if (raw.winningOutcomeIndex === 1) return [0, 1];
  const values = (raw.prices ?? []).map(toNumber);
  const percent = values.some((value) => value !== undefined && value > 1);
  const read = (value: number | undefined) => (percent ? percentToFraction(value) : toFraction(value));
  const yes = read(values[0]);
  const no = read(values[1]);
  return [yes ?? (no === undefined ? undefined : complement(no)), no ?? (yes === undefined ? undefined : complement(yes))];
}

function statusOf(raw: RawMarket): MarketStatus | undefined {
  if (raw.status === 'RESOLVED' || (raw.winningOutcomeIndex !== null && raw.winningOutcomeIndex !== undefined)) return 'resolved';
  if (raw.expired) return 'closed';
  if (raw.status === 'FUNDED' || raw.status === 'FUNDED_FLAGGED') return 'active';
  if (raw.status === 'LOCKED') return 'inactive';
  return undefined;
}
