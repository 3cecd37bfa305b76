import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StoredEntry } from './stored-entry.js';

/** How long one turn of filling may hold the event loop before requests get their turn again. */
const turnMs = 4;

/**
 * Makes each published entry's gzip pieces (its Router view's and its venue
 * event's) in the background, a few milliseconds of the event loop at a
 * time, so compressed Router pages and pass-through event answers are
 * stitched from pieces instead of compressed in the request path, and
 * start-up and ingestion pay nothing for them. Pieces (a seventh to a third
 * of a view's size at level 1) are kept in the store's piece file, which
 * lasts only as long as the process (see piece-file.ts).
 */
export class PieceFiller {
  /** Each venue's latest fill: a newer sweep of the venue stops the one before, whose entries are no longer served. */
  private readonly latest = new Map<string, symbol>();
  private stopped = false;

  /** Fills the pieces `entries` (one venue's published partition) lack; settles when done, or when superseded or stopped. */
  async fill(venue: string, entries: readonly StoredEntry[]): Promise<void> {
    const token = Symbol(venue);
    this.latest.set(venue, token);
    let index = 0;
    while (index < entries.length) {
      await nextTurn();
      if (this.stopped || this.latest.get(venue) !== token) return;
      const until = performance.now() + turnMs;
      for (; index < entries.length && performance.now() < until; index += 1) entries[index]!.keepPieces();
    }
  }

  stop(): void {
    this.stopped = true;
  }
}
