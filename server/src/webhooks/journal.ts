import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileDurablySync } from '@predgate/core';
import type { RecordLog } from './record-log.js';

/**
 * An append-only journal of JSON records, one per line, for state that must
 * survive `kill -9`: a record counts once `append` has resolved, which is
 * after it is written and synced to disk. Appends made while a write is
 * under way are written together with one sync (group commit), so thousands
 * of records a second cost a few syncs. A torn last line (the process died
 * mid-write) is ignored when the journal is read back.
 */
export class Journal<T> implements RecordLog<T> {
  private handle: FileHandle | undefined;
  private waiting: Array<{ line: string; done: () => void; failed: (error: unknown) => void }> = [];
  private writing: Promise<void> | undefined;
  private closed = false;
  private count = 0;
  /** Set while the journal is rewritten: appends wait. */
  private held = false;

  private constructor(readonly path: string) {}

  /**
   * Reads every whole record, then rewrites the journal as `compact` of them
   * (temporary file beside, synced, renamed over, folder synced) and opens it
   * for appending.
   */
  static async open<T>(path: string, compact: (records: T[]) => T[]): Promise<{ journal: Journal<T>; records: T[] }> {
    mkdirSync(dirname(path), { recursive: true });
    const records = compact(readRecords<T>(path));
    writeFileDurablySync(path, lines(records), { mode: 0o600 });
    const journal = new Journal<T>(path);
    journal.handle = await open(path, 'a');
    return { journal, records };
  }

  /** Resolves once the record is on disk. */
  append(record: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the webhook journal is closed'));
    return new Promise((done, failed) => {
      this.waiting.push({ line: `${JSON.stringify(record)}\n`, done, failed });
      this.count += 1;
      if (!this.held) this.writing ??= this.drain();
    });
  }

  /** Records appended since the journal was last rewritten: the caller rewrites it when this grows large. */
  get appended(): number {
    return this.count;
  }

  /**
   * Replaces the journal with `snapshot()` (the live state), atomically. The
   * snapshot is taken once every earlier append is on disk; appends made
   * meanwhile wait and are written after it, so replaying must tolerate a
   * record that the snapshot already holds.
   */
  async rewrite(snapshot: () => readonly T[]): Promise<void> {
    this.held = true;
    try {
      await this.writing;
      await this.handle?.close();
      // Counted from the snapshot on: appends made from here are the ones the rewritten journal adds.
      this.count = 0;
      writeFileDurablySync(this.path, lines(snapshot()), { mode: 0o600 });
      this.handle = await open(this.path, 'a');
    } finally {
      this.held = false;
      if (this.waiting.length > 0) this.writing ??= this.drain();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.writing;
    await this.handle?.close();
    this.handle = undefined;
  }

  private async drain(): Promise<void> {
    // One write and one sync for everything that arrived while the previous batch was being written.
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.handle!.write(batch.map((entry) => entry.line).join(''));
        await this.handle!.datasync();
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.writing = undefined;
  }
}

function readRecords<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const records: T[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.length === 0) continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      // Only the last line can be torn (appends are sequential); any unreadable line is skipped rather than fatal.
    }
  }
  return records;
}

function lines(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
