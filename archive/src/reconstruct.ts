import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { hourStart, nextHour, previousHour } from './hours.js';

/** A full book of one token at one point of an hour: replay of that hour's rows for the token may start here. */
export interface Checkpoint {
  assetId: string;
  /** How many of the token's rows of the hour the snapshot reflects (the index of the first one it does not). */
  row: number;
  snapshot: BookSnapshot;
}

export interface IndexedRow extends MarketRow {
  /** Position among the token's rows of its hour (receive order). */
  row: number;
}

/** What an hour holds for one token: its rows in receive order (possibly only those after its first checkpoint), its checkpoints in row order. */
export interface AssetHour {
  start: number;
  rows: IndexedRow[];
  checkpoints: Checkpoint[];
}

/**
 * Hours of data; `undefined` when nothing was recorded or imported for that hour. `since` lets the open hour start reading near the moment asked;
 * `until`, when given, says no row counting after it will be read, so a source may leave such rows out.
 */
export interface HourSource {
  assetHour(start: number, assetId: string, since: number, until?: number): Promise<AssetHour | undefined>;
}

export interface ReconstructOptions {
  /** How many hours back a book is looked for before it counts as unknown. */
  lookbackHours: number;
  /** The union of the outages overlapping a book's cover (from its last full snapshot's receipt to the moment it describes). */
  gapOf(assetId: string, syncedAt: number, moment: number): { from: number; to: number } | undefined;
}

/** How far before an hour's end a moment must be for rows received in the next hour to matter. */
const venueLagMarginMs = 5 * 60_000;

/**
 * Rows apply in receive order. A row counts at its token's *effective* time:
 * the latest venue timestamp among the token's rows up to it, so a row the
 * venue stamped earlier than one already received counts at that later time
 * (it is never dropped, and replay never stops at it).
 */
function effectiveTime(state: BookState, row: MarketRow): number {
  return Math.max(state.timestamp, row.timestamp);
}

/** The token's book after every row with effective time at or before `since`; `undefined` when the archive never saw a snapshot. */
export async function bookAt(source: HourSource, assetId: string, since: number, options: ReconstructOptions): Promise<BookSnapshot | undefined> {
  const cursor = await replayUntil(source, assetId, since, options);
  return cursor.state.known ? withGap(cursor.state.snapshot(), options, since) : undefined;
}

/**
 * Full books from `since` to `until`: the book at `since` (when known), then the
 * book after each change up to `until`, rows sharing one effective time coalesced; at most `limit`.
 */
export async function booksBetween(
  source: HourSource,
  assetId: string,
  range: { since: number; until: number; limit: number },
  options: ReconstructOptions,
): Promise<BookSnapshot[]> {
  const cursor = await replayUntil(source, assetId, range.since, options, range.until);
  const state = cursor.state;
  const books: BookSnapshot[] = [];
  if (state.known) books.push(withGap(state.snapshot(), options, range.since));
  let pendingAt: number | undefined;
  let pendingTime = -1;
  const emit = () => {
    if (pendingAt !== undefined && state.known && books.length < range.limit) books.push(withGap(state.snapshot(), options, pendingAt));
    pendingAt = undefined;
  };
  // Rows are kept in receive order, so a row stamped before `until` can sit in the hour after it.
  const lastHour = nextHour(hourStart(range.until));
  for (let at = cursor.start; at <= lastHour && books.length < range.limit; at = nextHour(at)) {
    const first = at === cursor.start;
    const hour = first ? cursor.hour : await source.assetHour(at, assetId, range.since);
    if (!hour) continue;
    for (let index = first ? cursor.next : 0; index < hour.rows.length; index += 1) {
      const row = hour.rows[index]!;
      const time = effectiveTime(state, row);
      if (time > range.until) {
        emit();
        return books;
      }
      if (pendingAt !== undefined && time !== pendingTime) emit();
      if (books.length >= range.limit) return books;
      state.apply(row);
      pendingAt = row.receivedAt;
      pendingTime = time;
    }
    emit();
  }
  return books;
}

function withGap(snapshot: BookSnapshot, options: ReconstructOptions, moment: number): BookSnapshot {
  const gap = options.gapOf(snapshot.assetId, snapshot.syncedAt ?? Number.NEGATIVE_INFINITY, moment);
  const { gap: _carried, ...rest } = snapshot;
  return gap ? { ...rest, gap } : rest;
}

interface Cursor {
  state: BookState;
  /** The hour replay stopped in (absent when nothing was recorded then), and the next row of it not applied. */
  start: number;
  hour: AssetHour | undefined;
  next: number;
}

/** Replays up to `since`; the caller then reads the stopping hour's rows no further than `until`. */
async function replayUntil(source: HourSource, assetId: string, since: number, options: ReconstructOptions, until = since): Promise<Cursor> {
  const target = hourStart(since);
  // Walk back to the latest hour holding a checkpoint usable for `since`.
  const hours: (AssetHour | undefined)[] = [];
  let checkpoint: Checkpoint | undefined;
  for (let back = 0, at = target; back <= options.lookbackHours; back += 1, at = previousHour(at)) {
    const hour = at === target ? await source.assetHour(at, assetId, since, until) : await source.assetHour(at, assetId, Number.POSITIVE_INFINITY);
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
    if (!hour) continue;
    const isTarget = index === hours.length - 1;
    let position = index === 0 && checkpoint ? rowPosition(hour.rows, checkpoint.row) : 0;
    for (; position < hour.rows.length; position += 1) {
      const row = hour.rows[position]!;
      if (isTarget && effectiveTime(state, row) > since) break;
      state.apply(row);
    }
    if (isTarget) result = { state, start: target, hour, next: position };
  }
  // Venue times run behind receive times: the next hour may open with rows that count at or before `since`.
  if (result.hour && result.next < result.hour.rows.length) return result;
  const following = nextHour(target) - since <= venueLagMarginMs ? await source.assetHour(nextHour(target), assetId, since, until) : undefined;
  if (!following || following.rows.length === 0) return result;
  // A checkpoint of the next hour that counts at or before `since` already holds everything before it.
  const resumeFrom = latestCheckpoint(following, since);
  // Without one, replay must start at the hour's first row, which the source may have left out.
  if (!resumeFrom && (following.checkpoints[0]?.row ?? 0) > 0) return result;
  const followingState = resumeFrom ? BookState.from(resumeFrom.snapshot) : state;
  let position = resumeFrom ? rowPosition(following.rows, resumeFrom.row) : 0;
  for (; position < following.rows.length && effectiveTime(followingState, following.rows[position]!) <= since; position += 1) {
    followingState.apply(following.rows[position]!);
  }
  return resumeFrom || position > 0 ? { state: followingState, start: following.start, hour: following, next: position } : result;
}

/**
 * The first of an hour's checkpoints after `chosen` (the one a read starts from; none: the hour's first row)
 * whose book is already later than `until`: a book's time is the latest venue time of its rows and never goes
 * back, so every row after it counts after `until`, and a read up to `until` may stop there. `undefined` when
 * no checkpoint is. Without `chosen`, the book replay starts from may be behind a book carried into the hour
 * (its checkpoint at row 0), so only a checkpoint later than that book's time shows a row's time.
 */
export function checkpointPast<T extends { row: number; timestamp: number }>(checkpoints: readonly T[], chosen: T | undefined, until: number): T | undefined {
  const carried = checkpoints[0]?.row === 0 ? checkpoints[0].timestamp : Number.NEGATIVE_INFINITY;
  const after = chosen ? Math.max(until, chosen.timestamp) : Math.max(until, carried);
  return checkpoints.find((checkpoint) => checkpoint.row > (chosen?.row ?? 0) && checkpoint.timestamp > after);
}

/** Index in `rows` of the first row whose position is at least `row`. */
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
