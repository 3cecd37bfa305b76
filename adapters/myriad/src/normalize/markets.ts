import { compact, text, toFraction, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus } from '@predgate/core';
import type { RawMarket, RawOutcome } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { marketKey } from '../ids.js';

/**
 * One market, all its outcomes: a multi-outcome market stays one market of N
 * outcomes, each priced by its own pool price (pmxt split such markets into
 * binaries with synthetic "Not X" outcomes priced wrong). A resolved market's
 * prices are its closing prices; amounts are in the market's own collateral
 * (`sourceMetadata.token`: USDC.e on Abstract, USDC on Linea, USDT or USD1 on BNB).
 */
export function normalizeMarket(raw: RawMarket): Market {
  const marketId = marketKey(raw);
  const resolved = raw.state === 'resolved' && !raw.voided;
  const winner = resolved ? raw.outcomes.find((outcome) => Number(outcome.id) === Number(raw.resolvedOutcomeId)) : undefined;
  return withBinaryRefs(
    compact({
      marketId,
      eventId: marketId,
      title: text(raw.title) ?? text(raw.shortName) ?? marketId,
      description: text(raw.description) ?? '',
      slug: text(raw.slug),
      url: `https://myriad.markets/markets/${encodeURIComponent(text(raw.slug) ?? String(raw.id))}`,
      image: text(raw.imageUrl),
      outcomes: raw.outcomes.map((outcome) =>
        compact({
          outcomeId: `${marketId}:${Number(outcome.id)}`,
          marketId,
          label: labelOf(outcome),
          price: resolved ? (toFraction(outcome.closingPrice) ?? (outcome === winner ? 1 : 0)) : toFraction(outcome.price),
          priceChange24h: toNumber(outcome.priceChange24h),
        }),
      ),
      resolutionDate: toIsoDate(raw.expiresAt),
      volume24h: toNumber(raw.volume24h) ?? 0,
      volume: toNumber(raw.volume),
      liquidity: toNumber(raw.liquidity) ?? 0,
      status: statusOf(raw),
      category: raw.topics?.[0],
      tags: raw.topics && raw.topics.length > 0 ? raw.topics : undefined,
      sourceExchange: venueId,
      sourceMetadata: compact({
        networkId: Number(raw.networkId),
        id: Number(raw.id),
        tradingModel: raw.tradingModel ?? undefined,
        token: raw.token ?? undefined,
        state: raw.state ?? undefined,
        voided: raw.voided ?? undefined,
        resolvedOutcomeId: raw.resolvedOutcomeId == null ? undefined : Number(raw.resolvedOutcomeId),
        // The venue names the winning outcome once resolved (a voided market has none).
        winner: winner ? labelOf(winner) : undefined,
        winningOutcomeId: winner ? `${marketId}:${Number(winner.id)}` : undefined,
        questionId: raw.questionId ?? undefined,
      }),
    }),
  );
}

const labelOf = (outcome: RawOutcome) => text(outcome.title) ?? `Outcome ${Number(outcome.id)}`;

/** Each market is an event of its own (the same question on several networks is several markets). */
export function normalizeEvent(raw: RawMarket): Event {
  const market = normalizeMarket(raw);
  return compact({
    id: market.marketId,
    title: market.title,
    description: market.description,
    slug: market.slug ?? market.marketId,
    url: market.url,
    image: market.image,
    markets: [market],
    volume24h: market.volume24h,
    volume: market.volume,
    category: market.category,
    tags: market.tags,
    sourceExchange: venueId,
    sourceMetadata: market.sourceMetadata,
  });
}

function statusOf(raw: RawMarket): MarketStatus | undefined {
  if (raw.voided) return 'closed';
  if (raw.state === 'open') return 'active';
  if (raw.state === 'closed') return 'closed';
  if (raw.state === 'resolved') return 'resolved';
  return undefined;
}
