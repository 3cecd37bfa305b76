import { join } from 'node:path';
import { CatalogService, EmbeddedCatalogStore } from '@predgate/catalog';
import { silentLogger, systemClock } from '@predgate/core';
import type { Event, OrderBook, VenueAdapter } from '@predgate/core';
import { until } from '@predgate/core/testkit';
import { BookChanges } from '../src/webhooks/book-changes.js';
import type { WatchBook } from '../src/webhooks/book-changes.js';
import type { EventSpec } from '../src/webhooks/model.js';
import { WebhookService } from '../src/webhooks/service.js';
import type { WebhookSettings } from '../src/webhooks/service.js';
import { SweepChanges } from '../src/webhooks/sweep-changes.js';

/**
 * A scripted catalog (two sweeps of a venue that does not stream books) and a
 * scripted book stream (a venue that does), with one subscription asking for
 * every kind: the notifications they must yield are known in advance.
 */
/** The API key id the scenario's subscription belongs to. */
export const scenarioKey = 'scenario';

export const scenarioEvents: EventSpec[] = [
  { kind: 'market.created', filter: { q: 'bitcoin' } },
  { kind: 'market.resolved', filter: {} },
  { kind: 'market.closed', filter: { sourceExchange: 'scripted' } },
  { kind: 'price.crossed', filter: { sourceExchange: 'scripted', outcomeId: 'm1-yes', level: 0.5, direction: 'above' } },
  { kind: 'price.crossed', filter: { sourceExchange: 'streamed', outcomeId: 'b-yes', level: 0.5, direction: 'either' } },
  { kind: 'book.changed', filter: { sourceExchange: 'streamed', outcomeId: 'b-yes', throttleSeconds: 1 } },
];

/**
 * Sweep 2 against sweep 1: m3 created (matches "bitcoin"), m4 created (does
 * not), m2 resolved and so closed, m1's yes crossed 0.5 upwards. The books:
 * changes at book times 1000, 2500 and 4000 pass the 1 s throttle (1500 and
 * 2600 do not), and the mid price crosses 0.5 at 2500.
 */
export const expectedKinds = [
  'market.created',
  'market.resolved',
  'market.closed',
  'price.crossed',
  'book.changed',
  'book.changed',
  'book.changed',
  'price.crossed',
];

export const scriptedSweeps: Event[][] = [
  [event('e1', 'Rates in December', [market('m1', 'active', 0.4), market('m2', 'active', 0.7)])],
  [
    event('e1', 'Rates in December', [market('m1', 'active', 0.6), market('m2', 'resolved', 1)]),
    event('e2', 'Bitcoin above 100k', [market('m3', 'active', 0.3)]),
    event('e3', 'Election turnout', [market('m4', 'active', 0.5)]),
  ],
];

export const scriptedBooks: OrderBook[] = [
  book(1_000, 0.38, 0.42),
  book(1_500, 0.43, 0.47),
  book(2_500, 0.53, 0.57),
  book(2_600, 0.54, 0.58),
  book(4_000, 0.52, 0.56),
];

export interface Scenario {
  webhooks: WebhookService;
  catalog: CatalogService;
  sweeps: SweepChanges;
  books: BookChanges;
  /** Runs both sweeps and plays the book stream; resolves once every notification is journaled. */
  play(): Promise<void>;
  close(): Promise<void>;
}

/** The scenario's services over `dir`, delivering with `settings`. */
export async function openScenario(dir: string, settings: WebhookSettings): Promise<Scenario> {
  const logger = silentLogger;
  const webhooks = await WebhookService.open({ dir: join(dir, 'webhooks'), settings, clock: systemClock, logger });
  const store = new EmbeddedCatalogStore({ dir: join(dir, 'catalog') });
  await store.open();
  let sweep = 0;
  // A venue declaring nothing beyond its events (no category words of its own).
  const adapter = { profile: {}, fetchEvents: () => Promise.resolve(scriptedSweeps[sweep] ?? []) } as unknown as VenueAdapter;
  const catalog = new CatalogService({ store, venues: [{ id: 'scripted', adapter, shrinkGuard: false }], logger: silentLogger });
  await catalog.load();
  const streamsBooks = (venue: string) => venue === 'streamed';
  const sweeps = new SweepChanges({ dir: join(dir, 'webhooks', 'snapshots'), store, webhooks, streamsBooks, logger });
  let listener: Parameters<WatchBook>[2] | undefined;
  const watch: WatchBook = (_venue, _outcomeId, given) => {
    listener = given;
    return () => (listener = undefined);
  };
  const books = new BookChanges({ webhooks, watch, streamsBooks, rewatchMs: 60_000, logger });
  return {
    webhooks,
    catalog,
    sweeps,
    books,
    async play() {
      for (sweep = 0; sweep < scriptedSweeps.length; sweep += 1) {
        const record = await catalog.sweep('scripted');
        await sweeps.sweepCommitted('scripted', record.sweepId);
      }
      if (!listener) throw new Error('the book watch did not open');
      for (const next of scriptedBooks) listener.book(next);
      // Book notifications are journaled asynchronously: wait until all of them are.
      const subscription = webhooks.list(scenarioKey)[0]!;
      await until(
        () => webhooks.deliveriesOf(scenarioKey, subscription.id, { limit: 1, offset: 0 }).total >= expectedKinds.length,
        'every notification journaled',
        10_000,
      );
    },
    async close() {
      books.close();
      await sweeps.idle();
      await catalog.stop();
      await webhooks.close();
      await store.close();
    },
  };
}

function event(id: string, title: string, markets: Event['markets']): Event {
  return { id, title, description: '', slug: title.toLowerCase().replaceAll(' ', '-'), markets, volume24h: 1, url: `https://example.test/${id}` };
}

function market(id: string, status: 'active' | 'resolved', yes: number): Event['markets'][number] {
  return {
    marketId: id,
    title: `Market ${id}`,
    description: '',
    outcomes: [
      { outcomeId: `${id}-yes`, label: 'Yes', price: yes },
      { outcomeId: `${id}-no`, label: 'No', price: Math.round((1 - yes) * 100) / 100 },
    ],
    volume24h: 1,
    liquidity: 1,
    url: `https://example.test/${id}`,
    status,
  };
}

function book(timestamp: number, bid: number, ask: number): OrderBook {
  return { bids: [{ price: bid, size: 10 }], asks: [{ price: ask, size: 10 }], timestamp, datetime: new Date(timestamp).toISOString() };
}
