import { coreMethods } from '@predgate/core';
import type { Logger, OrderBook } from '@predgate/core';
import type { BookFilter, PriceFilter, Subscription } from './model.js';
import { bookPrice, crossed } from './price-level.js';
import type { StreamHub } from '../streaming/hub.js';
import type { VenueDirectory } from '../venues/directory.js';
import type { WebhookService } from './service.js';

/** Watches one outcome's book; the returned function stops watching. `ended`: the watch stopped on its own. */
export type WatchBook = (venue: string, outcomeId: string, listener: { book(book: OrderBook): void; ended(): void }) => () => void;

export interface BookChangesOptions {
  webhooks: WebhookService;
  watch: WatchBook;
  /** Venues whose books stream; the others' `price.crossed` comes from sweeps. */
  streamsBooks: (venue: string) => boolean;
  /** Wait before watching again an outcome whose watch ended. */
  rewatchMs: number;
  logger: Logger;
}

/** Books sent in a notification are cut to this many levels a side, which bounds the body. */
const bookDepth = 20;

/**
 * `book.changed` (throttled) and, on venues that stream, `price.crossed`:
 * one shared watch (through the streaming hub) per outcome any subscription
 * names, opened and closed as subscriptions come and go. Throttling and
 * crossings are judged on the books' own timestamps and prices, so the same
 * stream always yields the same notifications.
 */
export class BookChanges {
  private readonly watches = new Map<string, { stop: () => void; price?: number }>();
  /** Book time of the last `book.changed` sent, per subscription and outcome. */
  private readonly lastSent = new Map<string, number>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly stopListening: () => void;
  private closed = false;

  constructor(private readonly options: BookChangesOptions) {
    this.stopListening = options.webhooks.onChange(() => this.refresh());
    this.refresh();
  }

  /** Outcomes watched now, as `venue outcomeId`. */
  get watched(): string[] {
    return [...this.watches.keys()];
  }

  close(): void {
    this.closed = true;
    this.stopListening();
    for (const timer of this.retries) clearTimeout(timer);
    for (const watch of this.watches.values()) watch.stop();
    this.watches.clear();
  }

  /** Opens a watch for every outcome a subscription names and closes those none names any more. */
  private refresh(): void {
    if (this.closed) return;
    const wanted = new Set(this.targets().map(({ venue, outcomeId }) => watchKey(venue, outcomeId)));
    const live = new Set([...this.options.webhooks.subscribedTo('book.changed')].map(({ subscription }) => subscription.id));
    for (const key of this.lastSent.keys()) if (!live.has(key.split(' ')[0]!)) this.lastSent.delete(key);
    for (const [key, watch] of this.watches) {
      if (wanted.has(key)) continue;
      watch.stop();
      this.watches.delete(key);
    }
    for (const key of wanted) if (!this.watches.has(key)) this.open(key);
  }

  private targets(): Array<{ venue: string; outcomeId: string }> {
    const { webhooks, streamsBooks } = this.options;
    return [...webhooks.subscribedTo('book.changed'), ...webhooks.subscribedTo('price.crossed')]
      .map(({ spec }) => spec.filter as BookFilter | PriceFilter)
      .filter((filter) => streamsBooks(filter.sourceExchange))
      .map((filter) => ({ venue: filter.sourceExchange, outcomeId: filter.outcomeId }));
  }

  private open(key: string): void {
    const [venue, outcomeId] = JSON.parse(key) as [string, string];
    const watch: { stop: () => void; price?: number } = { stop: () => undefined };
    this.watches.set(key, watch);
    watch.stop = this.options.watch(venue, outcomeId, {
      book: (book) =>
        void this.book(venue, outcomeId, watch, book).catch((error: unknown) =>
          this.options.logger.error({ err: error, venue, outcomeId }, 'a book notification could not be journaled'),
        ),
      ended: () => {
        if (this.watches.get(key) !== watch) return;
        this.watches.delete(key);
        const timer = setTimeout(() => {
          this.retries.delete(timer);
          this.refresh();
        }, this.options.rewatchMs);
        timer.unref();
        this.retries.add(timer);
      },
    });
  }

  private async book(venue: string, outcomeId: string, watch: { price?: number }, book: OrderBook): Promise<void> {
    const { webhooks } = this.options;
    const price = bookPrice(book);
    const previous = watch.price;
    if (price !== undefined) watch.price = price;
    const sends: Array<Promise<unknown>> = [];
    const named = (subscription: Subscription, filter: BookFilter | PriceFilter) =>
      filter.sourceExchange === venue && filter.outcomeId === outcomeId && subscription;
    for (const { subscription, spec } of webhooks.subscribedTo('book.changed')) {
      const filter = spec.filter as BookFilter;
      if (!named(subscription, filter)) continue;
      const throttleKey = `${subscription.id} ${outcomeId}`;
      const last = this.lastSent.get(throttleKey);
      if (last !== undefined && book.timestamp - last < filter.throttleSeconds * 1000) continue;
      this.lastSent.set(throttleKey, book.timestamp);
      const cut = { ...book, bids: book.bids.slice(0, bookDepth), asks: book.asks.slice(0, bookDepth) };
      sends.push(
        webhooks.notify(subscription, {
          kind: 'book.changed',
          key: `${venue}:${outcomeId}:${book.timestamp}`,
          data: { sourceExchange: venue, outcomeId, book: cut },
        }),
      );
    }
    if (price !== undefined && previous !== undefined) {
      for (const { subscription, spec } of webhooks.subscribedTo('price.crossed')) {
        const filter = spec.filter as PriceFilter;
        if (!named(subscription, filter) || !crossed(filter, previous, price)) continue;
        sends.push(
          webhooks.notify(subscription, {
            kind: 'price.crossed',
            key: `${venue}:${outcomeId}:${filter.level}:${filter.direction}:${book.timestamp}`,
            data: {
              sourceExchange: venue,
              outcomeId,
              level: filter.level,
              direction: filter.direction,
              previousPrice: previous,
              price,
              timestamp: book.timestamp,
              source: 'stream',
            },
          }),
        );
      }
    }
    await Promise.all(sends);
  }
}

function watchKey(venue: string, outcomeId: string): string {
  return JSON.stringify([venue, outcomeId]);
}

/** Book watches through the streaming hub, sharing the venue subscription with every `/ws` client of the same outcome. */
export function hubBookWatch(hub: StreamHub, venues: VenueDirectory): WatchBook {
  return (venueId, outcomeId, listener) => {
    const venue = venues.get(venueId);
    if (!venue) {
      queueMicrotask(() => listener.ended());
      return () => undefined;
    }
    const { stream } = coreMethods.watchOrderBook;
    return hub.watch(
      { venue, method: 'watchOrderBook', stream, upstreamArgs: [outcomeId] },
      { data: (payload) => listener.book(payload as OrderBook), error: (_error, final) => final && listener.ended() },
    );
  };
}
