import { randomBytes } from 'node:crypto';
import { PredgateError, collectingDrift, conformAnswer, coreMethods } from '@predgate/core';
import type { Clock, Event, VenueAdapter } from '@predgate/core';
import { catalogEntry, isTrading } from '../document.js';
import type { CatalogStore, SweepRecord } from '../store.js';

export interface SweepOptions {
  venue: string;
  adapter: VenueAdapter;
  store: CatalogStore;
  clock: Clock;
  /** Events asked for per venue call. */
  pageSize: number;
  /** A venue that keeps handing out pages past this is treated as broken. */
  maxPages: number;
  /** `all`: open and closed events; `active`: open ones only (closed events then leave the catalog). */
  status: 'all' | 'active';
  /** Looks at a complete sweep before it is committed; a reason it returns holds the sweep back (it is dropped, the previous one stays served). */
  hold?: (record: SweepRecord) => string | undefined;
  /** The replica sweeping, recorded with the sweep when gateways share the catalog. */
  sweptBy?: string;
}

/** A complete sweep: committed, or held back with the reason. */
export type SweepResult = SweepRecord & { held?: string };

/**
 * One complete sweep of a venue: every event (active and closed, unless told
 * `active`), paged
 * through the adapter (no venue-specific code), written to the store and
 * committed only when the last page is in. Any failure aborts the sweep, so
 * the previous one stays served.
 */
export async function sweepVenue(options: SweepOptions): Promise<SweepResult> {
  const { venue, store, clock } = options;
  const startedAt = clock.now();
  const sweepId = `${venue}-${startedAt}-${randomBytes(3).toString('hex')}`;
  const writer = await store.beginSweep(venue, sweepId);
  // An event can come twice (a venue listing it under two statuses): it is stored, and counted, once.
  const sizes = new Map<string, { markets: number; outcomes: number; openMarkets: number }>();
  try {
    for await (const events of pages(options)) {
      await writer.add(events.map((event) => catalogEntry(venue, event)));
      for (const event of events) {
        sizes.set(event.id, {
          markets: event.markets.length,
          outcomes: event.markets.reduce((sum, market) => sum + market.outcomes.length, 0),
          openMarkets: event.markets.filter(isTrading).length,
        });
      }
      // Normalising a page is CPU work: let requests in before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const counts = { events: sizes.size, markets: 0, outcomes: 0, openMarkets: 0 };
    for (const size of sizes.values()) {
      counts.markets += size.markets;
      counts.outcomes += size.outcomes;
      counts.openMarkets += size.openMarkets;
    }
    const record: SweepRecord = { venue, sweepId, startedAt, finishedAt: clock.now(), ...counts, ...(options.sweptBy ? { sweptBy: options.sweptBy } : {}) };
    const held = options.hold?.(record);
    if (held !== undefined) {
      await writer.abort();
      return { ...record, held };
    }
    await writer.commit(record);
    return record;
  } catch (error) {
    await writer.abort().catch(() => {});
    throw error;
  }
}

/**
 * Pages of events: by cursor where the adapter hands one back
 * (fetchEventsPaginated), otherwise by offset until a short page. Each page
 * is held to the unified model: an event outside it is left out as drift,
 * like an event the adapter could not read, and both still count toward
 * their page, so one bad event never ends a sweep early (and a sweep that
 * loses many is held back by the shrink guard).
 */
async function* pages({ adapter, pageSize, maxPages, venue, status }: SweepOptions): AsyncGenerator<Event[]> {
  if (adapter.fetchEventsPaginated) {
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const { value: result, reports } = await collectingDrift(async () => {
        const answer = await adapter.fetchEventsPaginated!({ status, limit: pageSize, ...(cursor ? { cursor } : {}) });
        return { ...answer, data: conformAnswer('fetchEvents', coreMethods.fetchEvents, answer.data, venue) as Event[] };
      });
      yield result.data;
      if (!result.nextCursor || result.data.length + reports.length === 0) return;
      cursor = result.nextCursor;
    }
  } else if (adapter.fetchEvents) {
    for (let page = 0; page < maxPages; page += 1) {
      const { value: events, reports } = await collectingDrift(
        async () =>
          conformAnswer(
            'fetchEvents',
            coreMethods.fetchEvents,
            await adapter.fetchEvents!({ status, limit: pageSize, offset: page * pageSize }),
            venue,
          ) as Event[],
      );
      yield events;
      if (events.length + reports.length < pageSize) return;
    }
  } else {
    throw new PredgateError('NOT_SUPPORTED', `${venue} lists no events: it cannot be ingested`, { exchange: venue });
  }
  throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} was still handing out pages after ${maxPages}: sweep abandoned`, {
    exchange: venue,
  });
}
