import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, rename, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SweepRecord } from '../store.js';

/** Every venue's events (venue event id to the event's JSON) and last complete sweep. */
export interface CatalogState {
  sweeps: Map<string, SweepRecord>;
  events: Map<string, Map<string, string>>;
}

/** What a committed sweep changed: events new or different, and events gone. */
export interface SweepChange {
  sweep: SweepRecord;
  /** JSON of each new or changed event, exactly as served. */
  upserts: Array<{ venueEventId: string; json: string }>;
  removals: string[];
}

/**
 * The embedded store on disk: a snapshot of the whole catalog plus a journal
 * of the sweeps committed since. A sweep is committed once its journal line is
 * on disk (fsync), so `kill -9` right after loses nothing; a line cut short by
 * a crash was never committed and is ignored. The snapshot is written beside
 * and renamed over, then the journal is emptied.
 */
export class CatalogFiles {
  private readonly snapshotPath: string;
  private readonly journalPath: string;
  private sequence = 0;

  constructor(private readonly dir: string) {
    this.snapshotPath = join(dir, 'snapshot.ndjson');
    this.journalPath = join(dir, 'journal.ndjson');
  }

  async load(): Promise<CatalogState> {
    await mkdir(this.dir, { recursive: true });
    const state: CatalogState = { sweeps: new Map(), events: new Map() };
    let snapshotSequence = 0;
    if (existsSync(this.snapshotPath)) {
      let header = true;
      for await (const line of lines(this.snapshotPath)) {
        if (header) {
          const parsed = JSON.parse(line) as { sequence: number; sweeps: SweepRecord[] };
          snapshotSequence = parsed.sequence;
          for (const sweep of parsed.sweeps) state.sweeps.set(sweep.venue, sweep);
          header = false;
          continue;
        }
        const { venue, venueEventId, event } = JSON.parse(line) as { venue: string; venueEventId: string; event: unknown };
        venueEvents(state, venue).set(venueEventId, JSON.stringify(event));
      }
    }
    this.sequence = snapshotSequence;
    if (existsSync(this.journalPath)) {
      const journal: string[] = [];
      for await (const line of lines(this.journalPath)) if (line) journal.push(line);
      journal.forEach((line, index) => {
        let record: { sequence: number; sweep: SweepRecord; removals: string[]; upserts: Array<{ venueEventId: string; event: unknown }> };
        try {
          record = JSON.parse(line);
        } catch (error) {
          if (index === journal.length - 1) return;
          throw new Error(`catalog journal ${this.journalPath} is corrupt at line ${index + 1}: ${(error as Error).message}`, { cause: error });
        }
        if (record.sequence <= snapshotSequence) return;
        const events = venueEvents(state, record.sweep.venue);
        for (const venueEventId of record.removals) events.delete(venueEventId);
        for (const upsert of record.upserts) events.set(upsert.venueEventId, JSON.stringify(upsert.event));
        state.sweeps.set(record.sweep.venue, record.sweep);
        this.sequence = record.sequence;
      });
    }
    return state;
  }

  /** Appends a committed sweep and waits until it is on disk. */
  async append(change: SweepChange): Promise<void> {
    this.sequence += 1;
    // Assembled as text: the events are JSON already, and a large sweep should not be parsed again to be written.
    const upserts = change.upserts.map((upsert) => `{"venueEventId":${JSON.stringify(upsert.venueEventId)},"event":${upsert.json}}`);
    const line = `{"sequence":${this.sequence},"sweep":${JSON.stringify(change.sweep)},"removals":${JSON.stringify(change.removals)},"upserts":[${upserts.join(',')}]}\n`;
    const file = await open(this.journalPath, 'a');
    try {
      await file.write(line);
      await file.sync();
    } finally {
      await file.close();
    }
  }

  async journalBytes(): Promise<number> {
    return existsSync(this.journalPath) ? (await stat(this.journalPath)).size : 0;
  }

  /** Writes the whole catalog as the new snapshot and empties the journal. */
  async snapshot(state: CatalogState): Promise<void> {
    const temporary = `${this.snapshotPath}.tmp`;
    const file = await open(temporary, 'w');
    try {
      await file.write(`${JSON.stringify({ sequence: this.sequence, sweeps: [...state.sweeps.values()] })}\n`);
      for (const [venue, events] of state.events) {
        let chunk = '';
        for (const [venueEventId, json] of events) {
          chunk += `{"venue":${JSON.stringify(venue)},"venueEventId":${JSON.stringify(venueEventId)},"event":${json}}\n`;
          if (chunk.length > 1 << 20) {
            await file.write(chunk);
            chunk = '';
          }
        }
        if (chunk) await file.write(chunk);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.snapshotPath);
    await syncDirectory(this.dir);
    await truncate(this.journalPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

function venueEvents(state: CatalogState, venue: string): Map<string, string> {
  let events = state.events.get(venue);
  if (!events) {
    events = new Map();
    state.events.set(venue, events);
  }
  return events;
}

function lines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
