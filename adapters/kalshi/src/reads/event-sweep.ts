import type { StatusFilter } from '@predgate/core';
import { nextCursorOf } from '../api/paging.js';
import type { RawEvent, RawPage } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { ticker } from '../ids.js';
import { decodeSweepCursor, encodeSweepCursor, passesOf } from './sweep-cursor.js';
import type { SweepPosition } from './sweep-cursor.js';
import { checked } from '../api/schemas.js';

export interface SweepRequest<T> {
  status?: StatusFilter;
  /** Series ticker, filtered by the venue. */
  series?: string;
  /** Unified cursor to resume from. */
  cursor?: string;
  /** Items wanted; Infinity reads up to the page cap. */
  wanted: number;
  /** What one event contributes (the event when it matches, its matching markets, ...). */
  select: (event: RawEvent) => T[];
  /**
   * Every event yields exactly one item: pages are then sized to what is
   * still wanted, so the read ends on a page boundary and the cursor handed
   * back is Kalshi's own.
   */
  onePerEvent: boolean;
}

export interface SweepResult<T> {
  items: T[];
  /** Cursor of the first event not read; absent when the sweep is complete. */
  next?: string;
}

/**
 * Walks `GET /events` (markets nested) through the venue statuses the
 * unified status needs, from a cursor, until enough items are collected, the
 * statuses are exhausted, or `maxPages` pages were read. An event matching
 * several statuses (it has open and settled markets) is read once per call.
 */
export async function sweepEvents<T>(ctx: KalshiContext, request: SweepRequest<T>): Promise<SweepResult<T>> {
  const passes = passesOf(request.status);
  let position: SweepPosition = request.cursor === undefined ? { pass: 0, skip: 0 } : decodeSweepCursor(request.cursor, passes, ctx.origin.exchange);
  const { pageSize, maxPages } = ctx.config;
  const items: T[] = [];
  const seen = new Set<string>();
  for (let pages = 0; position.pass < passes.length && items.length < request.wanted && pages < maxPages; pages += 1) {
    const remaining = request.wanted - items.length;
    const limit = request.onePerEvent ? Math.min(pageSize, position.skip + remaining) : pageSize;
    const answer = await ctx.api.get<unknown>('/events', {
      limit,
      cursor: position.cursor,
      status: passes[position.pass],
      series_ticker: request.series === undefined ? undefined : ticker(request.series),
      with_nested_markets: true,
    });
    const page = checked<RawPage>('GET /events', ctx.origin.exchange, answer);
    const events = page.events as RawEvent[];
    let stoppedAt: number | undefined;
    for (let index = position.skip; index < events.length; index += 1) {
      if (items.length >= request.wanted) {
        stoppedAt = index;
        break;
      }
      const event = events[index]!;
      if (seen.has(event.event_ticker)) continue;
      seen.add(event.event_ticker);
      items.push(...request.select(event));
    }
    if (stoppedAt !== undefined) {
      position = { ...position, skip: stoppedAt };
      break;
    }
    const next = nextCursorOf(page);
    position = next === undefined || events.length === 0 ? { pass: position.pass + 1, skip: 0 } : { pass: position.pass, cursor: next, skip: 0 };
  }
  return position.pass < passes.length ? { items, next: encodeSweepCursor(position, passes) } : { items };
}
