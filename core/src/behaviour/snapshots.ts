import { randomUUID } from 'node:crypto';
import { PredgateError } from '../errors.js';
import { argumentBounds } from '../model/index.js';
import type { Page } from '../model/index.js';

/**
 * Cursor paging over a snapshot, as pmxt derives `fetchEventsPaginated` and
 * `fetchMarketsPaginated` for every venue: a call without a cursor lists the
 * venue once into a snapshot and answers its first page; a call with the
 * cursor it got answers the next page from the same snapshot, so pages never
 * shift while the venue's own order changes. Each adapter instance keeps its
 * few newest snapshots for a while; an older cursor is refused.
 */
export const snapshotBounds = {
  /** Items one snapshot holds at most: listing stops there. */
  items: 2_000,
  /** Snapshots an adapter instance keeps; a newer one evicts the oldest. */
  kept: 4,
  /** How long a snapshot's cursors stay valid. */
  ttlMs: 10 * 60_000,
  /** Page size when the caller gives no `limit`. */
  defaultLimit: 100,
} as const;

interface Snapshot {
  items: readonly unknown[];
  takenAt: number;
}

/** Each adapter instance's snapshots by id, oldest first. */
const snapshotsOf = new WeakMap<object, Map<string, Snapshot>>();

/**
 * A venue's whole list, read by offset in pages of the largest `limit` until a
 * short page, a page adding nothing new (a venue ignoring `offset`), or
 * `snapshotBounds.items`.
 */
export async function listWhole<T>(list: (window: { limit: number; offset: number }) => Promise<T[]>, keyOf: (item: T) => string): Promise<T[]> {
  const pageSize = Math.min(argumentBounds.listLimit, snapshotBounds.items);
  const seen = new Set<string>();
  const items: T[] = [];
  for (let offset = 0; items.length < snapshotBounds.items; offset += pageSize) {
    const page = await list({ limit: pageSize, offset });
    const fresh = page.filter((item) => !seen.has(keyOf(item)));
    for (const item of fresh) seen.add(keyOf(item));
    items.push(...fresh.slice(0, snapshotBounds.items - items.length));
    if (page.length < pageSize || fresh.length === 0) break;
  }
  return items;
}

/** One page of a snapshot: a new snapshot from `take` without a cursor, the cursor's snapshot otherwise. */
export async function snapshotPage<T>(
  owner: object,
  venue: string,
  params: { limit?: number; cursor?: string },
  take: () => Promise<T[]>,
  now = Date.now(),
): Promise<Page<T>> {
  const snapshots = snapshotsOf.get(owner) ?? new Map<string, Snapshot>();
  snapshotsOf.set(owner, snapshots);
  for (const [id, snapshot] of snapshots) if (now - snapshot.takenAt > snapshotBounds.ttlMs) snapshots.delete(id);

  let id: string;
  let offset = 0;
  if (params.cursor !== undefined) {
    ({ id, offset } = decodeSnapshotCursor(params.cursor, venue));
    if (!snapshots.has(id)) {
      throw new PredgateError('VALIDATION_ERROR', 'The cursor has expired: call again without a cursor for a new snapshot', {
        exchange: venue,
        detail: { argument: 'params', path: 'params.cursor', rule: 'cursor.expired', ttlMs: snapshotBounds.ttlMs },
      });
    }
  } else {
    id = randomUUID();
    snapshots.set(id, { items: await take(), takenAt: now });
    while (snapshots.size > snapshotBounds.kept) snapshots.delete(snapshots.keys().next().value!);
  }
  const { items } = snapshots.get(id)!;
  const end = Math.min(items.length, offset + (params.limit ?? snapshotBounds.defaultLimit));
  return {
    data: items.slice(offset, end) as T[],
    total: items.length,
    ...(end < items.length ? { nextCursor: Buffer.from(JSON.stringify({ s: id, o: end })).toString('base64url') } : {}),
  };
}

function decodeSnapshotCursor(cursor: string, venue: string): { id: string; offset: number } {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; o?: unknown };
    if (typeof state.s === 'string' && Number.isInteger(state.o) && (state.o as number) >= 0) return { id: state.s, offset: state.o as number };
  } catch {
    // reported below
  }
  throw new PredgateError('VALIDATION_ERROR', '"cursor" is not a cursor this gateway issued', {
    exchange: venue,
    detail: { argument: 'params', path: 'params.cursor', rule: 'cursor.invalid' },
  });
}

/** Each adapter instance's last whole lists by name, for `loadMarkets`. */
const loadedOf = new WeakMap<object, Map<string, Snapshot>>();

/** The adapter instance's last whole list of this name while fresh, unless `reload`; otherwise a new one from `take`. */
export async function loadedList<T>(owner: object, name: string, reload: boolean, take: () => Promise<T[]>, now = Date.now()): Promise<T[]> {
  const loaded = loadedOf.get(owner) ?? new Map<string, Snapshot>();
  loadedOf.set(owner, loaded);
  const kept = loaded.get(name);
  if (kept && !reload && now - kept.takenAt <= snapshotBounds.ttlMs) return kept.items as T[];
  const items = await take();
  loaded.set(name, { items, takenAt: now });
  return items;
}
