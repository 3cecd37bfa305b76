import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeCategory } from '@predgate/catalog';
import { writeFileDurablySync } from '@predgate/core';
import type { CatalogStore } from '@predgate/catalog';
import type { Event, Logger, Market } from '@predgate/core';
import type { MarketFilter, Notification, PriceFilter } from './model.js';
import { sweepKinds } from './model.js';
import { crossed } from './price-level.js';
import type { WebhookService } from './service.js';

/** What a venue's markets looked like at its last diffed sweep: status and outcome prices. */
interface Snapshot {
  sweepId: string;
  markets: Record<string, { status?: string; prices: Record<string, number> }>;
}

export interface SweepChangesOptions {
  /** Where each venue's last snapshot is kept, so a restart diffs against what was last notified. */
  dir: string;
  store: CatalogStore;
  webhooks: WebhookService;
  /** Venues whose books stream: their `price.crossed` comes from the stream, not from sweeps. */
  streamsBooks: (venue: string) => boolean;
  logger: Logger;
}

const pageSize = 500;

/**
 * `market.created`, `market.resolved`, `market.closed` and (for venues that do
 * not stream books) `price.crossed`, found by diffing each committed sweep of
 * a venue against the snapshot of the previous one. Notifications are
 * journaled before the new snapshot replaces the old, so a crash in between
 * finds the same changes again, with the same ids, which the service does not
 * send twice. While no subscription asks for these kinds nothing is read and
 * the snapshot is dropped: the first sweep after a subscription sets the baseline.
 */
export class SweepChanges {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly options: SweepChangesOptions) {
    mkdirSync(options.dir, { recursive: true });
  }

  /** A venue's sweep was committed; diffs run one at a time per venue. */
  sweepCommitted(venue: string, sweepId: string): Promise<void> {
    const previous = this.running.get(venue) ?? Promise.resolve();
    const next = previous
      .then(() => this.diff(venue, sweepId))
      .catch((error: unknown) => this.options.logger.warn({ err: error, venue }, 'webhook sweep diff failed; the next sweep finds the changes'));
    this.running.set(venue, next);
    return next;
  }

  /** Waits for diffs under way. */
  async idle(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private async diff(venue: string, sweepId: string): Promise<void> {
    const { webhooks } = this.options;
    const path = join(this.options.dir, `${encodeURIComponent(venue)}.json`);
    const wanted = [...sweepKinds].some((kind) => webhooks.subscribedTo(kind).length > 0);
    if (!wanted) {
      rmSync(path, { force: true });
      return;
    }
    const before = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Snapshot) : undefined;
    if (before?.sweepId === sweepId) return;
    const after: Snapshot = { sweepId, markets: {} };
    const pending: Array<Promise<unknown>> = [];
    for await (const event of this.events(venue)) {
      for (const market of event.markets) {
        after.markets[market.marketId] = { ...(market.status ? { status: market.status } : {}), prices: pricesOf(market) };
        if (before) for (const found of changes(market, before.markets[market.marketId], sweepId)) pending.push(this.send(venue, event, market, found));
      }
    }
    await Promise.all(pending);
    writeFileDurablySync(path, JSON.stringify(after));
  }

  private async *events(venue: string): AsyncGenerator<Event> {
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.options.store.events({ venue, status: 'all', order: 'venue', limit: pageSize, offset });
      for (const entry of page.items) yield entry.router;
      if (page.items.length < pageSize) return;
    }
  }

  private async send(venue: string, event: Event, market: Market, found: Found): Promise<void> {
    const { webhooks } = this.options;
    const data = { sourceExchange: venue, event: { id: event.id, title: event.title, slug: event.slug, category: event.category }, market };
    for (const { subscription, spec } of webhooks.subscribedTo(found.kind)) {
      if (found.kind === 'price.crossed') {
        const filter = spec.filter as PriceFilter;
        if (this.options.streamsBooks(venue) || filter.sourceExchange !== venue) continue;
        const before = found.before[filter.outcomeId];
        const after = found.after[filter.outcomeId];
        if (before === undefined || after === undefined || !crossed(filter, before, after)) continue;
        await webhooks.notify(subscription, {
          kind: 'price.crossed',
          key: `${filter.outcomeId}:${filter.level}:${filter.direction}:${found.sweepId}`,
          data: {
            ...data,
            outcomeId: filter.outcomeId,
            level: filter.level,
            direction: filter.direction,
            previousPrice: before,
            price: after,
            source: 'sweep',
          },
        });
        continue;
      }
      if (!marketMatches(spec.filter as MarketFilter, venue, event, market)) continue;
      const notification: Notification = { kind: found.kind, key: `${venue}:${market.marketId}`, data };
      await webhooks.notify(subscription, notification);
    }
  }
}

type Found =
  | { kind: 'market.created' | 'market.resolved' | 'market.closed' }
  | { kind: 'price.crossed'; before: Record<string, number>; after: Record<string, number>; sweepId: string };

function changes(market: Market, before: Snapshot['markets'][string] | undefined, sweepId: string): Found[] {
  if (!before) return [{ kind: 'market.created' }];
  const found: Found[] = [];
  if (market.status === 'resolved' && before.status !== 'resolved') found.push({ kind: 'market.resolved' });
  if (isTrading(before.status) && !isTrading(market.status)) found.push({ kind: 'market.closed' });
  const after = pricesOf(market);
  if (Object.keys(after).some((outcome) => before.prices[outcome] !== undefined && before.prices[outcome] !== after[outcome])) {
    found.push({ kind: 'price.crossed', before: before.prices, after, sweepId });
  }
  return found;
}

function isTrading(status: string | undefined): boolean {
  return status === undefined || status === 'active';
}

function pricesOf(market: Market): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const outcome of market.outcomes) if (outcome.price !== undefined) prices[outcome.outcomeId] = outcome.price;
  return prices;
}

/** The Router's filters on a market: venue, category, substring of the event's or market's title or slug, market ids. */
function marketMatches(filter: MarketFilter, venue: string, event: Event, market: Market): boolean {
  if (filter.sourceExchange !== undefined && filter.sourceExchange.toLowerCase() !== venue.toLowerCase()) return false;
  if (filter.marketIds && !filter.marketIds.includes(market.marketId)) return false;
  if (filter.category !== undefined && normalizeCategory(filter.category) !== event.category) return false;
  if (filter.q !== undefined) {
    const text = `${event.title} ${event.slug} ${market.title} ${market.slug ?? ''}`.toLowerCase();
    if (!text.includes(filter.q.toLowerCase())) return false;
  }
  return true;
}
