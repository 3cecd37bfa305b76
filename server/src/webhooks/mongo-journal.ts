import { randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { LogFollower, RecordLog } from './record-log.js';

export const journalCollectionName = 'webhookJournal';
export const journalStateCollectionName = 'webhookJournalState';
export const snapshotCollectionName = 'webhookSnapshots';

interface RecordDocument {
  /** The record's place in the log: numbers are reserved from the `sequence` state document, so every writer's are unique. */
  _id: number;
  writer: string;
  /** The record as JSON, so it reads back exactly as the file journal's (BSON would turn `undefined` members into `null`). */
  json: string;
}

interface StateDocument {
  _id: 'sequence' | 'generation' | 'snapshot' | 'signingKey';
  /** `sequence`: the last record number reserved; `generation`: the last snapshot's. */
  n?: number;
  /** `snapshot`: the snapshot to start from, and the last record it covers. */
  generation?: number;
  upTo?: number;
  /** `signingKey`: the key subscription secrets are derived from, shared by every replica. */
  key?: string;
}

interface SnapshotDocument {
  _id: string;
  generation: number;
  part: number;
  json: string[];
}

const followEveryMs = 250;
/** Snapshot records per document, well under MongoDB's 16 MB document limit for webhook-sized records. */
const snapshotPartRecords = 500;

/**
 * The webhook journal in the catalog's MongoDB, shared by every replica: each
 * appends its records under numbers reserved from one counter, and follows
 * the others' records by reading past the last number it has seen. Writers
 * reserve before they insert, so a number can be missing for a moment (or for
 * good, when its writer died): a reader waits a while (`gapPatienceMs`) for it before
 * reading past. A rewrite stores the live state as a snapshot covering every
 * record up to the rewriter's contiguous position, then deletes those records;
 * a reader that had not yet seen them starts again from the snapshot.
 */
export interface MongoJournalOptions {
  /** This replica: its own records are not followed back. */
  writer: string;
  /** Told when following fails; it is tried again at the next turn. */
  onError: (error: unknown) => void;
  /** A number reserved by a writer that died before writing its record stays missing: readers pass it after this long. */
  gapPatienceMs?: number;
}

export class MongoJournal<T> implements RecordLog<T> {
  private readonly records: Collection<RecordDocument>;
  private readonly state: Collection<StateDocument>;
  private readonly snapshots: Collection<SnapshotDocument>;
  private waiting: Array<{ record: T; done: () => void; failed: (error: unknown) => void }> = [];
  private writing: Promise<void> | undefined;
  private held = false;
  private closed = false;
  private count = 0;
  /** Every record numbered up to here has been applied by this replica. */
  private frontier = 0;
  /** Numbers above the frontier already applied (this writer's own, or read past a gap). */
  private readonly ahead = new Set<number>();
  private gapSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  private readonly writer: string;
  private readonly onError: (error: unknown) => void;
  private readonly gapPatienceMs: number;

  private constructor(db: Db, options: MongoJournalOptions) {
    this.writer = options.writer;
    this.onError = options.onError;
    this.gapPatienceMs = options.gapPatienceMs ?? 10_000;
    this.records = db.collection<RecordDocument>(journalCollectionName);
    this.state = db.collection<StateDocument>(journalStateCollectionName);
    this.snapshots = db.collection<SnapshotDocument>(snapshotCollectionName);
  }

  /** Opens the shared journal and reads the state it holds: the latest snapshot, then every record after it. */
  static async open<T>(db: Db, options: MongoJournalOptions): Promise<{ journal: MongoJournal<T>; records: T[] }> {
    const journal = new MongoJournal<T>(db, options);
    return { journal, records: await journal.readAll() };
  }

  /** The key every replica derives subscription secrets from: made by the first replica to ask, then read by the others. */
  static async sharedSigningKey(db: Db): Promise<string> {
    const found = await db
      .collection<StateDocument>(journalStateCollectionName)
      .findOneAndUpdate({ _id: 'signingKey' }, { $setOnInsert: { key: randomBytes(32).toString('hex') } }, { upsert: true, returnDocument: 'after' });
    return found!.key!;
  }

  append(record: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the webhook journal is closed'));
    return new Promise((done, failed) => {
      this.waiting.push({ record, done, failed });
      this.count += 1;
      if (!this.held) this.writing ??= this.drain();
    });
  }

  get appended(): number {
    return this.count;
  }

  follow(follower: LogFollower<T>): void {
    this.timer = setInterval(() => {
      this.polling ??= this.poll(follower)
        .catch(this.onError)
        .finally(() => (this.polling = undefined));
    }, followEveryMs);
    this.timer.unref();
  }

  async rewrite(snapshot: () => readonly T[]): Promise<void> {
    this.held = true;
    try {
      await this.writing;
      const upTo = this.frontier;
      const records = snapshot().map((record) => JSON.stringify(record));
      const generation = await this.next('generation', 1);
      const parts: SnapshotDocument[] = [];
      for (let part = 0; part * snapshotPartRecords < records.length || part === 0; part += 1) {
        parts.push({ _id: `${generation}:${part}`, generation, part, json: records.slice(part * snapshotPartRecords, (part + 1) * snapshotPartRecords) });
      }
      await this.snapshots.insertMany(parts);
      // The snapshot counts from here on; what it replaced goes after.
      await this.state.updateOne({ _id: 'snapshot' }, { $set: { generation, upTo } }, { upsert: true });
      await this.records.deleteMany({ _id: { $lte: upTo } });
      await this.snapshots.deleteMany({ generation: { $ne: generation } });
      this.count = 0;
    } finally {
      this.held = false;
      if (this.waiting.length > 0) this.writing ??= this.drain();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.polling;
    await this.writing;
  }

  private async readAll(): Promise<T[]> {
    for (;;) {
      const pointer = await this.state.findOne({ _id: 'snapshot' });
      const parts = pointer ? await this.snapshots.find({ generation: pointer.generation }).sort({ part: 1 }).toArray() : [];
      const upTo = pointer?.upTo ?? 0;
      const later = await this.records.find({ _id: { $gt: upTo } }, { sort: { _id: 1 } }).toArray();
      // A rewrite that finished meanwhile may have deleted the snapshot read: read again.
      const now = await this.state.findOne({ _id: 'snapshot' });
      if (now?.generation !== pointer?.generation) continue;
      this.frontier = upTo;
      this.ahead.clear();
      for (const document of later) this.ahead.add(document._id);
      this.advance();
      return [...parts.flatMap((part) => part.json), ...later.map((document) => document.json)].map((json) => JSON.parse(json) as T);
    }
  }

  private async poll(follower: LogFollower<T>): Promise<void> {
    if (this.closed) return;
    const pointer = await this.state.findOne({ _id: 'snapshot' });
    if (pointer?.upTo !== undefined && pointer.upTo > this.frontier) {
      follower.reset(await this.readAll());
      return;
    }
    const found = await this.records.find({ _id: { $gt: this.frontier } }, { sort: { _id: 1 }, limit: 5_000 }).toArray();
    const fresh = found.filter((document) => !this.ahead.has(document._id));
    for (const document of fresh) this.ahead.add(document._id);
    this.advance();
    const theirs = fresh.filter((document) => document.writer !== this.writer).map((document) => JSON.parse(document.json) as T);
    if (theirs.length > 0) follower.records(theirs);
  }

  /** Moves the frontier over every applied number; past a missing one only once it has been missing for `gapPatienceMs`. */
  private advance(): void {
    for (;;) {
      while (this.ahead.delete(this.frontier + 1)) this.frontier += 1;
      if (this.ahead.size === 0) {
        this.gapSince = undefined;
        return;
      }
      const now = Date.now();
      this.gapSince ??= now;
      if (now - this.gapSince < this.gapPatienceMs) return;
      this.frontier = Math.min(...this.ahead) - 1;
      this.gapSince = undefined;
    }
  }

  /** Reserves `count` numbers of a counter; returns the first. */
  private async next(counter: 'sequence' | 'generation', count: number): Promise<number> {
    const found = await this.state.findOneAndUpdate({ _id: counter }, { $inc: { n: count } }, { upsert: true, returnDocument: 'after' });
    return found!.n! - count + 1;
  }

  private async drain(): Promise<void> {
    // One reservation and one insert for everything that arrived while the previous batch was being written.
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const first = await this.next('sequence', batch.length);
        const documents = batch.map((entry, index): RecordDocument => ({ _id: first + index, writer: this.writer, json: JSON.stringify(entry.record) }));
        for (const document of documents) this.ahead.add(document._id);
        await this.records.insertMany(documents, { ordered: true });
        this.advance();
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.writing = undefined;
  }
}
