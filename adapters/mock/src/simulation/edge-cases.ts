import { withBinaryRefs } from '@predgate/core';
import type { Event, Market, Outcome } from '@predgate/core';

const site = 'https://mock.predgate.dev';
const day = 86_400_000;

/**
 * Events of the shapes real venues send at their edges, added to the catalog
 * with the `edgeCases` setting: a settled market naming its winner, a voided
 * one naming none, a volume past 2^53 with a numeric-text id and unknown
 * prices (not trading), and one market priced in percent (62.5 where a fraction belongs).
 * That last one breaks the unified model: lists leave it out as drift, and a
 * lookup of it answers the error naming the field.
 */
export function edgeCaseEvents(base: number, venueId: string): Event[] {
  const binary = (marketId: string, prices: Array<number | undefined>, fields: Partial<Market>): Market => {
    const outcomes: Outcome[] = ['Yes', 'No'].map((label, index) => ({
      outcomeId: `${marketId}-${index}`,
      marketId,
      label,
      ...(prices[index] === undefined ? {} : { price: prices[index] }),
    }));
    return withBinaryRefs<Market>({
      marketId,
      eventId: marketId.replace(/-m0$/, ''),
      title: fields.title ?? marketId,
      description: 'An edge case of the simulated venue.',
      outcomes,
      resolutionDate: new Date(base + 30 * day).toISOString(),
      volume24h: 0,
      liquidity: 0,
      url: `${site}/market/${marketId}`,
      category: 'Economy',
      tickSize: 0.01,
      status: 'active',
      sourceExchange: venueId,
      ...fields,
    });
  };
  const event = (id: string, market: Market): Event => ({
    id,
    title: market.title,
    description: market.description,
    slug: id,
    markets: [market],
    volume24h: market.volume24h,
    ...(market.volume === undefined ? {} : { volume: market.volume }),
    url: `${site}/event/${id}`,
    category: 'Economy',
    tags: ['economy', 'edge-case'],
    sourceExchange: venueId,
    sourceMetadata: { edgeCase: true },
  });
  // Trading over two days ago: settled with a winner, or voided with none.
  const finished = (id: string, title: string, prices: number[], status: Market['status'], sourceMetadata: Record<string, unknown>) =>
    event(id, binary(`${id}-m0`, prices, { title, status, resolutionDate: new Date(base - 2 * day).toISOString(), sourceMetadata }));
  return [
    finished('mock-edge-settled', 'Edge case: settled, Yes won', [1, 0], 'resolved', { winningOutcomeId: 'mock-edge-settled-m0-0' }),
    finished('mock-edge-voided', 'Edge case: voided, no winner', [0.4, 0.6], 'closed', { voided: true }),
    event(
      '90071992547409930',
      binary('90071992547409930-m0', [undefined, undefined], {
        title: 'Edge case: a volume past 2^53 and prices unknown',
        // Not trading: without a price the simulation makes no book.
        status: 'inactive',
        volume: 18_446_744_073_709_552_000,
        volume24h: 9_007_199_254_740_992,
        liquidity: 1_000,
      }),
    ),
    event('mock-edge-percent', binary('mock-edge-percent-m0', [62.5, 37.5], { title: 'Edge case: prices sent in percent', volume24h: 1 })),
  ];
}
