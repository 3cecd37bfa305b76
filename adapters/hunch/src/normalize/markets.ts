import { compact, complement, percentToFraction, text, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome } from '@predgate/core';
import type { RawMarket, RawOdds, RawRung } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { outcomeIdOf } from '../ids.js';

const webUrl = 'https://www.playhunch.xyz';

const statuses: Record<string, MarketStatus> = { open: 'active', closed: 'inactive', resolved: 'resolved', voided: 'closed' };

/** The venue's market types, as the subtype a reader would filter by. */
const subtypes: Record<string, string> = {
  market_cap: 'Market Cap',
  token_mcap_range: 'Market Cap',
  token_mcap_flip: 'Market Cap',
  token_mcap_close: 'Market Cap',
  token_basket_mcap: 'Market Cap',
  price_direction: 'Price',
  token_price_range: 'Price',
  token_return: 'Returns',
  token_rank_milestone: 'Ranking',
  chain_volume: 'On-chain Volume',
  chain_throughput: 'Throughput',
  chain_stablecoins: 'Stablecoins',
  launchpad_volume: 'Launchpad',
  dune_metric: 'On-chain',
  volume_eta: 'Volume',
  event: 'Event',
};

/**
 * Binary markets (`outcomes: null`) have a YES and a NO side priced by the
 * pool's odds; N-way markets have one outcome per rung, priced only where a
 * research ladder gives `impliedPct` (the list leaves them unpriced).
 */
function outcomesOf(raw: RawMarket, odds: RawOdds | null | undefined, ladder: RawRung[] | undefined): Outcome[] {
  if (!raw.outcomes) {
    // Odds in cents are percentages of one dollar; unknown stays unknown, never 0.
    const yes = percentToFraction(odds?.yesPriceCents);
    const no = percentToFraction(odds?.noPriceCents) ?? (yes === undefined ? undefined : complement(yes));
    return [
      compact({ outcomeId: outcomeIdOf(raw.id, 'yes'), marketId: raw.id, label: 'Yes', price: yes }),
      compact({ outcomeId: outcomeIdOf(raw.id, 'no'), marketId: raw.id, label: 'No', price: no }),
    ];
  }
  const priced = new Map((ladder ?? []).map((rung) => [rung.key, rung]));
  return raw.outcomes.map((rung) => {
    const live = priced.get(rung.key);
    return compact({
      outcomeId: outcomeIdOf(raw.id, rung.key),
      marketId: raw.id,
      label: text(rung.label) ?? rung.key,
      price: percentToFraction(live?.impliedPct),
      metadata: compact({
        key: rung.key,
        shortLabel: text(rung.shortLabel),
        lowerUsd: toNumber(rung.lowerUsd),
        upperUsd: toNumber(rung.upperUsd),
        startAt: text(rung.startAt),
        endAt: text(rung.endAt),
        backedUsd: toNumber(live?.backedUsd),
        isCurrent: live?.isCurrent ?? undefined,
      }),
    });
  });
}

/** Members kept under `sourceMetadata`: what the unified fields do not already carry. */
const metadataKeys = [
  'category',
  'tokenSymbol',
  'chainId',
  'deadlineLabel',
  'feeBps',
  'feeRecipientLabel',
  'defaultTicketUsd',
  'totalBets',
  'targetMarketCapUsd',
  'headline',
  'links',
] as const;

/** A market with the live odds of a research answer when one was read (N-way rungs are priced only there). */
export function normalizeMarket(raw: RawMarket, live?: { odds?: RawOdds | null; ladder?: { outcomes: RawRung[] } | null }): Market {
  const subtype = raw.category ? subtypes[raw.category] : undefined;
  const category = raw.category === 'event' ? 'Culture' : 'Crypto';
  const tags = [...new Set([category, subtype, text(raw.tokenSymbol)].filter((tag): tag is string => tag !== undefined))];
  return withBinaryRefs(
    compact<Market>({
      marketId: raw.id,
      eventId: raw.id,
      title: text(raw.question) ?? text(raw.shortTitle) ?? raw.id,
      description: text(raw.summary) ?? '',
      slug: text(raw.slug),
      outcomes: outcomesOf(raw, live?.odds ?? raw.odds, live?.ladder?.outcomes),
      resolutionDate: toIsoDate(raw.deadlineAt),
      // USD amounts as numbers or numeric text; past 2^53 they are the nearest double.
      volume24h: toNumber(raw.volume24hUsd) ?? 0,
      volume: toNumber(raw.volumeUsd),
      liquidity: toNumber(raw.virtualLiquidityUsd) ?? 0,
      url: text(raw.links?.app) ?? `${webUrl}/markets/${encodeURIComponent(text(raw.slug) ?? raw.id)}`,
      category,
      tags,
      status: statuses[raw.status],
      sourceMetadata: Object.fromEntries(metadataKeys.filter((key) => raw[key] !== undefined && raw[key] !== null).map((key) => [key, raw[key]])),
      sourceExchange: venueId,
    }),
  );
}

/** Hunch has no event tier: each market is an event of its own, with the market's id. */
export function eventOf(market: Market): Event {
  return compact<Event>({
    id: market.marketId,
    title: market.title,
    description: market.description,
    slug: market.slug ?? market.marketId,
    markets: [market],
    volume24h: market.volume24h,
    volume: market.volume,
    url: market.url,
    category: market.category,
    tags: market.tags,
    sourceExchange: venueId,
  });
}
