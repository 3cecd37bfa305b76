import { compact, pick, toFraction, toIsoDate, toList, toNumber, withBinaryRefs } from '@predgate/core';
import type { Market, MarketStatus, Outcome } from '@predgate/core';
import type { GammaEvent, GammaMarket } from '../api/types.js';
import { venueId, webUrl } from '../venue.js';

/** The venue fields kept under `Market.sourceMetadata` (the fact sheet's list, not the whole payload). */
const marketMetadataKeys = [
  'negRisk',
  'negRiskMarketID',
  'negRiskRequestID',
  'negRiskOther',
  'questionID',
  'orderMinSize',
  'acceptingOrders',
  'enableOrderBook',
  'bestBid',
  'bestAsk',
  'spread',
  'lastTradePrice',
  'oneDayPriceChange',
  'groupItemTitle',
  'umaResolutionStatus',
  'feesEnabled',
  'feeType',
  'feeSchedule',
  'version',
  'eventStartTime',
  'closedTime',
  'clobTokenIds',
  'positionIds',
] as const;

/** Outcome token ids: Protocol V2 markets list them in `positionIds`, and their `clobTokenIds` must be ignored. */
export function outcomeTokenIds(market: GammaMarket): string[] {
  if (market.version === 'v2') return (market.positionIds ?? []).map(String);
  return toList(market.clobTokenIds) ?? [];
}

/** The event the market belongs to: the one it was nested in, or the trimmed copy `/markets` answers carry. */
function parentOf(market: GammaMarket, event: GammaEvent | undefined): GammaEvent | undefined {
  return event ?? market.events?.[0];
}

/** Events carry no category in practice; the first tag is the venue's own headline classification. */
export function categoryOf(event: GammaEvent | undefined): string | undefined {
  return event?.category ?? event?.tags?.find((tag) => tag.label)?.label;
}

export function tagsOf(event: GammaEvent | undefined): string[] | undefined {
  const labels = (event?.tags ?? []).map((tag) => tag.label).filter((label): label is string => Boolean(label));
  return labels.length > 0 ? labels : undefined;
}

export function eventUrl(slug: string | undefined): string {
  return slug ? `${webUrl}/event/${slug}` : '';
}

/**
 * Archived wins, then closed, then active (the venue keeps `active: true` on
 * resolved markets). A closed market whose UMA resolution is final is `resolved`.
 */
function statusOf(market: GammaMarket): MarketStatus {
  if (market.archived) return 'archived';
  if (market.closed) return market.umaResolutionStatus === 'resolved' ? 'resolved' : 'closed';
  return market.active === false ? 'inactive' : 'active';
}

/**
 * Outcomes zip the three parallel lists. Labels stay as the venue wrote them
 * (`Yes`/`No`, team names, `Up`/`Down`): the candidate of a multi-market
 * event is in the market's title and in `sourceMetadata.groupItemTitle`.
 */
function outcomesOf(market: GammaMarket, marketId: string): Outcome[] {
  const labels = toList(market.outcomes) ?? [];
  const prices = toList(market.outcomePrices) ?? [];
  const ids = outcomeTokenIds(market);
  const outcomes: Outcome[] = [];
  labels.forEach((label, index) => {
    const outcomeId = ids[index];
    // Without a token id the outcome cannot be quoted or traded, so it is no outcome of ours.
    if (!outcomeId) return;
    outcomes.push(
      compact({
        outcomeId,
        marketId,
        label,
        // `outcomePrices` is null on never-traded markets: their price is unknown, not 0.
        price: toFraction(prices[index]),
        // The venue's one daily change is that of the first outcome.
        priceChange24h: index === 0 ? boundedChange(market.oneDayPriceChange) : undefined,
        metadata: { clobTokenId: outcomeId },
      }),
    );
  });
  return outcomes;
}

function boundedChange(value: number | undefined): number | undefined {
  return value === undefined || !Number.isFinite(value) ? undefined : Math.min(1, Math.max(-1, value));
}

/** A Gamma market in the unified form, with the context of its parent event when known. */
export function normalizeMarket(market: GammaMarket, event?: GammaEvent): Market {
  const parent = parentOf(market, event);
  const marketId = String(market.id ?? '');
  const tickSize = toNumber(market.orderPriceMinTickSize);
  return withBinaryRefs(
    compact({
      marketId,
      eventId: parent?.id === undefined ? undefined : String(parent.id),
      title: market.question ?? parent?.title ?? '',
      description: market.description ?? parent?.description ?? '',
      slug: market.slug,
      outcomes: outcomesOf(market, marketId),
      resolutionDate: toIsoDate(market.endDate ?? market.endDateIso),
      volume24h: Math.max(0, toNumber(market.volume24hr) ?? 0),
      volume: nonNegative(market.volumeNum ?? toNumber(market.volume)),
      liquidity: Math.max(0, market.liquidityNum ?? toNumber(market.liquidity) ?? 0),
      openInterest: nonNegative(toNumber(market.openInterest)),
      url: parent?.slug ? eventUrl(parent.slug) : market.slug ? `${webUrl}/market/${market.slug}` : '',
      image: market.image ?? parent?.image,
      category: categoryOf(parent) ?? market.category,
      tags: tagsOf(parent),
      tickSize: tickSize !== undefined && tickSize > 0 && tickSize <= 1 ? tickSize : undefined,
      status: statusOf(market),
      contractAddress: market.conditionId,
      sourceMetadata: { ...pick(market, marketMetadataKeys), ...winnerOf(market) },
      sourceExchange: venueId,
    }),
  );
}

/** The winning outcome of a resolved market: the one outcome the venue prices "1" while the rest are "0". */
function winnerOf(market: GammaMarket): { winningOutcomeId?: string } {
  const status = statusOf(market);
  if (status !== 'resolved' && status !== 'closed') return {};
  const prices = toList(market.outcomePrices) ?? [];
  const ids = outcomeTokenIds(market);
  const winners = prices.flatMap((price, index) => (price === '1' ? [index] : []));
  if (winners.length !== 1 || !prices.every((price) => price === '1' || price === '0')) return {};
  const id = ids[winners[0]!];
  return id ? { winningOutcomeId: id } : {};
}

function nonNegative(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.max(0, value);
}
