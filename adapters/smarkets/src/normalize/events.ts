import { compact, percentToFraction, text, toIsoDate, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus } from '@predgate/core';
import type { RawContract, RawEvent, RawMarket } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { outcomeIdOf } from '../ids.js';

export interface MarketDetails {
  contracts: RawContract[];
  /** GBP, as the venue states it (not ten-thousandths). */
  volume?: number;
  /** Contract id → last executed price, a percent string. */
  lastPrices: Map<string, string | number | null | undefined>;
}

export function normalizeEvent(raw: RawEvent, markets: Array<{ market: RawMarket; details: MarketDetails }>): Event {
  const category = categoryOf(raw);
  const normalized = markets.map(({ market, details }) => normalizeMarket(market, raw, details));
  const volumes = normalized.map((market) => market.volume);
  return compact({
    id: raw.id,
    title: raw.name,
    description: text(raw.description) ?? '',
    slug: text(raw.slug) ?? raw.id,
    url: urlOf(raw),
    markets: normalized,
    // The venue publishes matched volume to date, no 24-hour figure.
    volume24h: 0,
    volume: volumes.every((volume) => volume !== undefined) && volumes.length > 0 ? volumes.reduce((sum, volume) => sum! + volume!, 0) : undefined,
    category,
    tags: category ? [category] : undefined,
    sourceExchange: venueId,
    sourceMetadata: compact({
      state: raw.state ?? undefined,
      type: raw.type ?? undefined,
      startDatetime: raw.start_datetime ?? undefined,
      fullSlug: raw.full_slug ?? undefined,
    }),
  });
}

/** A market's contracts are its outcomes, each priced by its last executed price (no trade yet: no price). */
export function normalizeMarket(raw: RawMarket, event: RawEvent, details: MarketDetails): Market {
  // Higher display_order first: home, draw, away; yes before no.
  const contracts = [...details.contracts].sort((a, b) => (b.display_order ?? 0) - (a.display_order ?? 0));
  const category = categoryOf(event);
  const winners = contracts.filter((contract) => contract.state_or_outcome === 'winner');
  return withBinaryRefs(
    compact({
      marketId: raw.id,
      eventId: raw.event_id,
      title: `${event.name} – ${raw.name}`,
      description: text(raw.description) ?? raw.name,
      slug: text(raw.slug),
      url: urlOf(event),
      outcomes: contracts.map((contract) =>
        compact({
          outcomeId: outcomeIdOf(raw.id, contract.id),
          marketId: raw.id,
          label: contract.name,
          price: settledPrice(contract, winners.length > 0) ?? percentToFraction(details.lastPrices.get(contract.id)),
          metadata: compact({
            contractId: contract.id,
            contractType: contract.contract_type?.name ?? undefined,
            state: contract.state_or_outcome ?? undefined,
          }),
        }),
      ),
      resolutionDate: toIsoDate(event.end_date) ?? toIsoDate(event.start_datetime),
      volume24h: 0,
      volume: details.volume,
      liquidity: 0,
      status: marketStatuses[raw.state ?? ''],
      category,
      tags: [category, text(raw.category)].filter((tag): tag is string => Boolean(tag)),
      sourceExchange: venueId,
      sourceMetadata: compact({
        state: raw.state ?? undefined,
        marketType: raw.market_type ?? undefined,
        winnerCount: raw.winner_count ?? undefined,
        winners: winners.length > 0 ? winners.map((contract) => outcomeIdOf(raw.id, contract.id)) : undefined,
        // One winner only: a dead heat names none.
        winningOutcomeId: winners.length === 1 ? outcomeIdOf(raw.id, winners[0]!.id) : undefined,
      }),
    }),
  );
}

/**
 * Once the venue names a winner, a contract's price is its result: 1 for a
 * winner, 0 for a loser. A dead heat or a reduced or voided contract pays
 * neither, so it keeps its last traded price.
 */
function settledPrice(contract: RawContract, settled: boolean): number | undefined {
  if (!settled) return undefined;
  if (contract.state_or_outcome === 'winner') return 1;
  return contract.state_or_outcome === 'loser' ? 0 : undefined;
}

const marketStatuses: Record<string, MarketStatus> = {
  open: 'active',
  live: 'active',
  new: 'inactive',
  halted: 'inactive',
  unavailable: 'inactive',
  settled: 'resolved',
  voided: 'closed',
};

/** The new-style `type.domain` (`football`), or the legacy type without its last part (`football_match` → `football`). */
function categoryOf(raw: RawEvent): string | undefined {
  if (typeof raw.type === 'object' && raw.type !== null) return text(raw.type.domain);
  const legacy = text(raw.type);
  return legacy?.includes('_') ? legacy.slice(0, legacy.lastIndexOf('_')) : legacy;
}

function urlOf(raw: RawEvent): string {
  const path = text(raw.full_slug);
  return path ? `https://smarkets.com${path}` : `https://smarkets.com/event/${raw.id}/${text(raw.slug) ?? ''}`;
}
