import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { hourStart, nextHour, previousHour } from './hours.js';
import type { GapMarker } from './rows.js';

/** A full book of one token at one point of an hour: replay of that hour's rows for the token may start here. */
export interface Checkpoint {
  assetId: string;
  /** Index, within the hour, of the first row not reflected in the snapshot. */
  row: number;
  /** Receive time of the last row reflected (the hour start for a carried-in book): gaps after it still apply. */
  receivedAt: number;
  snapshot: BookSnapshot;
}

export interface IndexedRow extends MarketRow {
  /** Position within its hour (the Parquet file's row number). */
  row: number;
}

/** What an hour holds for one token: its rows in receive order, its checkpoints in row order, the hour's gaps. */
export interface AssetHour {
  start: number;
  rows: IndexedRow[];
  checkpoints: Checkpoint[];
  gaps: GapMarker[];
}

/** Hours of data; `undefined` when nothing was recorded or imported for that hour. */
export interface HourSource {
  assetHour(start: number, assetId: string): Promise<AssetHour | undefined>;
}

export interface ReconstructOptions {
  /** How many hours back a book is looked for before it counts as unknown. */
  lookbackHours: number;
}

/** How far before an hour's end a moment must be for rows received in the next hour to matter. */
const venueLagMarginMs = 5 * 60_000;

/** The token's book after every row with venue time at or before `since`; `undefined` when the archive never saw a snapshot. */
export async function bookAt(source: HourSource, assetId: string, since: number, options: ReconstructOptions): Promise<BookSnapshot | undefined> {
  const cursor = await replayUntil(source, assetId, since, options);
  return cursor.state.known ? cursor.state.snapshot() : undefined;
}

/**
 * Full books from `since` to `until`: the book at `since` (when known), then the
 * book after each change up to `until`, rows sharing one venue time coalesced; at most `limit`.
 */
export async function booksBetween(
  source: HourSource,
  assetId: string,
  range: { since: number; until: number; limit: number },
  options: ReconstructOptions,
): Promise<BookSnapshot[]> {
  const cursor = await replayUntil(source, assetId, range.since, options);
  const books: BookSnapshot[] = [];
  if (cursor.state.known) books.push(cursor.state.snapshot());
  let pending = false;
  let pendingTime = -1;
  const emit = () => {
    if (pending && cursor.state.known && books.length < range.limit) books.push(cursor.state.snapshot());
    pending = false;
  };
  // Rows are kept in receive order, so a row stamped before `until` can sit in the hour after it.
  const lastHour = nextHour(hourStart(range.until));
  for (let at = cursor.start; at <= lastHour && books.length < range.limit; at = nextHour(at)) {
    const first = at === cursor.start;
    const hour = first ? cursor.hour : await source.assetHour(at, assetId);
    if (!hour) {
      if (!first && at <= range.until) cursor.state.markGap({ from: at, to: nextHour(at) });
      continue;
    }
    const gaps = pendingGaps(hour.gaps, assetId, first ? range.since : undefined);
    for (let index = first ? cursor.next : 0; index < hour.rows.length; index += 1) {
      const row = hour.rows[index]!;
      if (row.timestamp > range.until) {
        emit();
        return books;
      }
      gaps.applyBefore(row.receivedAt, cursor.state);
      if (pending && row.timestamp !== pendingTime) emit();
      if (books.length >= range.limit) return books;
      cursor.state.apply(row);
      if (changesBook(row)) {
        pending = true;
        pendingTime = row.timestamp;
      }
    }
    emit();
  }
  return books;
}

function changesBook(row: MarketRow): boolean {
  return row.eventType === 'book' || row.eventType === 'price_change' || row.eventType === 'tick_size_change' || row.eventType === 'last_trade_price';
}

interface Cursor {
  state: BookState;
  /** The hour replay stopped in (absent when nothing was recorded then), and the next row of it not applied. */
  start: number;
  hour: AssetHour | undefined;
  next: number;
}

async function replayUntil(source: HourSource, assetId: string, since: number, options: ReconstructOptions): Promise<Cursor> {
  const target = hourStart(since);
  // Walk back to the latest hour holding a checkpoint usable for `since`.
  const hours: (AssetHour | undefined)[] = [];
  let checkpoint: Checkpoint | undefined;
  for (let back = 0, at = target; back <= options.lookbackHours; back += 1, at = previousHour(at)) {
    const hour = await source.assetHour(at, assetId);
    hours.unshift(hour);
    if (!hour) continue;
    checkpoint = latestCheckpoint(hour, at === target ? since : Number.POSITIVE_INFINITY);
    if (checkpoint) break;
  }
  // Replay starts in the oldest hour looked at (`hours[0]`): from its checkpoint, or from nothing.
  const state = checkpoint ? BookState.from(checkpoint.snapshot) : new BookState(assetId);
  let result: Cursor = { state, start: target, hour: undefined, next: 0 };
  for (let index = 0; index < hours.length; index += 1) {
    const hour = hours[index];
    const isTarget = index === hours.length - 1;
    if (!hour) {
      const at = target - (hours.length - 1 - index) * 3_600_000;
      state.markGap({ from: at, to: nextHour(at) });
      continue;
    }
    const from = index === 0 ? checkpoint : undefined;
    const gaps = pendingGaps(hour.gaps, assetId, from?.receivedAt);
    let position = from ? rowPosition(hour.rows, from.row) : 0;
    for (; position < hour.rows.length; position += 1) {
      const row = hour.rows[position]!;
      if (isTarget && row.timestamp > since) break;
      gaps.applyBefore(row.receivedAt, state);
      state.apply(row);
    }
    if (isTarget) {
      gaps.applyStartedBy(since, state);
      result = { state, start: target, hour, next: position };
    }
  }
  // Venue times run behind receive times (by well under a second): the next hour may open with rows stamped before `since`.
  const following = nextHour(target) - since <= venueLagMarginMs ? await source.assetHour(nextHour(target), assetId) : undefined;
  if (following && following.rows.length > 0 && following.rows[0]!.timestamp <= since) {
    let position = 0;
    const gaps = pendingGaps(following.gaps, assetId);
    for (; position < following.rows.length && following.rows[position]!.timestamp <= since; position += 1) {
      gaps.applyBefore(following.rows[position]!.receivedAt, state);
      state.apply(following.rows[position]!);
    }
    result = { state, start: following.start, hour: following, next: position };
  }
  return result;
}

/** Index in `rows` of the first row whose hour position is at least `row`. */
function rowPosition(rows: IndexedRow[], row: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle]!.row < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

function latestCheckpoint(hour: AssetHour, since: number): Checkpoint | undefined {
  for (let index = hour.checkpoints.length - 1; index >= 0; index -= 1) {
    const checkpoint = hour.checkpoints[index]!;
    if (checkpoint.snapshot.timestamp <= since) return checkpoint;
  }
  return undefined;
}

/** An hour's gaps for one token, applied in time order as replay passes them. */
function pendingGaps(all: GapMarker[], assetId: string, after = Number.NEGATIVE_INFINITY) {
  const gaps = all.filter((gap) => gap.to > after && (!gap.assetIds || gap.assetIds.includes(assetId))).sort((a, b) => a.to - b.to);
  let next = 0;
  return {
    /** Gaps that ended before a row arrived: that row follows missed traffic. */
    applyBefore(receivedAt: number, state: BookState) {
      while (next < gaps.length && gaps[next]!.to <= receivedAt) state.markGap(gaps[next++]!);
    },
    /** At the end of a replay, a gap already begun by `since` makes the book at `since` uncertain. */
    applyStartedBy(since: number, state: BookState) {
      for (let index = next; index < gaps.length; index += 1) if (gaps[index]!.from <= since) state.markGap(gaps[index]!);
    },
  };
}
