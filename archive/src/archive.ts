import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { syncPath, syncPathSync, writeFileDurably } from '@predgate/core';
import { forkArchiveProcess } from './child-process.js';
import { GapLog } from './gaps.js';
import type { ArchiveFile, HourFacts, HourPaths, HourStore } from './hour-store.js';
import { hourFileName, hourFromKey, hourKey, hourStart, previousHour } from './hours.js';
import { importHourFiles } from './importer.js';
import type { ImportReport } from './importer.js';
import { HourJournal } from './journal.js';
import type { CheckpointPolicy } from './journal.js';
import { HourIndex } from './hour-index.js';
import type { IndexedCheckpoint } from './hour-index.js';
import { HourReader } from './reader.js';
import { bookAt, booksBetween, checkpointPast } from './reconstruct.js';
import type { AssetHour, Checkpoint, HourSource } from './reconstruct.js';
import { rollJob } from './roll-job.js';
import type { RollJob } from './roll-job.js';
import type { RollResult } from './roller.js';
import type { GapMarker } from './rows.js';

export interface ArchiveOptions {
  /** The archive's folder: `journal/` (the open hour), `files/` (published hourly Parquet), `index/` (hour indexes and file facts), `gaps.jsonl`. */
  dir: string;
  /** `write` recovers and appends (one process at a time); `read` only answers queries and lists files. */
  mode?: 'write' | 'read';
  now?: () => number;
  /** Rows of one token between two of its checkpoints: bounds how much a reconstruction replays. */
  checkpointEvery?: number;
  /** How often appended rows are written and synced to the journal. */
  flushIntervalMs?: number;
  /** How many hours back a reconstruction looks for a token's last book. */
  lookbackHours?: number;
  /** DuckDB's memory limit while sorting an hour (beyond it the sort spills to disk). */
  rollMemoryLimit?: string;
  /** Roll hours in a child process (the default), off this process's event loop and heap; `false` rolls in this process (tools, tests of other behaviour). */
  rollInChildProcess?: boolean;
  /** In `read` mode, where hours not yet published are asked for: the recording process, which holds the open hour's journal. */
  openHours?: HourSource;
}

export type { ArchiveFile, ImportReport };

let attempts = 0;

/**
 * Polymarket's market-channel history: an append-only journal for the open
 * hour (on disk; memory holds each token's book and where its checkpoints
 * are), one pmxt v2 Parquet file per closed UTC hour with its index beside
 * it (checkpoints, where each token's rows are), and a log of every interval without data.
 *
 * Crash safety: journal lines are synced before they count as flushed; an
 * hour is rolled (in a child process) into temporary files, which are synced,
 * and the data file is renamed last; the journal is removed only after that,
 * so a kill at any point leaves either the journal (rolled again on the next
 * start) or the finished file, never half a file under a published name.
 */
export class PolymarketArchive implements HourSource, HourStore {
  readonly journalDir: string;
  readonly filesDir: string;
  readonly indexDir: string;
  private readonly now: () => number;
  private readonly policy: CheckpointPolicy;
  private readonly lookbackHours: number;
  private readonly facts = new Map<number, HourFacts>();
  /** The names in `files/`: with `facts`, the listing of published hours that queries read (see `refreshListing`). */
  private readonly dataFiles = new Set<string>();
  /** The folders' modification times when last listed (-1: list again). */
  private readonly listedAt = { index: -1, files: -1 };
  private readonly journals = new Map<number, HourJournal>();
  private readonly indexes = new Map<number, HourIndex>();
  private readonly books = new Map<string, BookState>();
  private readonly gaps: GapLog;
  private open: HourJournal | undefined;
  /** The last hour rolled: its rows, how long it took, the rolling process's peak memory. */
  lastRoll: (RollResult & { hour: string; ms: number }) | undefined;
  private rolling: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: ArchiveOptions,
    private readonly reader: HourReader,
  ) {
    this.journalDir = join(options.dir, 'journal');
    this.filesDir = join(options.dir, 'files');
    this.indexDir = join(options.dir, 'index');
    this.now = options.now ?? Date.now;
    this.policy = { every: options.checkpointEvery ?? 500, maxAgeMs: 5 * 60_000 };
    this.lookbackHours = options.lookbackHours ?? 24;
    for (const dir of [this.journalDir, this.filesDir, this.indexDir]) mkdirSync(dir, { recursive: true });
    this.gaps = new GapLog(join(options.dir, 'gaps.jsonl'));
  }

  static async open(options: ArchiveOptions): Promise<PolymarketArchive> {
    const archive = new PolymarketArchive(options, await HourReader.open());
    archive.refreshListing();
    if ((options.mode ?? 'write') === 'write') {
      await archive.recover();
      archive.reindexUnindexed();
      const interval = options.flushIntervalMs ?? 200;
      archive.timer = setInterval(() => archive.flush(), interval);
      archive.timer.unref();
    }
    return archive;
  }

  /** Adds rows in receive order; they are durable after the next `flush()`. `frame` is their frame's text, journalled instead of the rows. */
  append(rows: MarketRow[], frame?: { text: string; receivedAt: number }): void {
    const receivedAt = frame?.receivedAt ?? rows[0]?.receivedAt;
    if (receivedAt === undefined) return;
    const journal = this.journalFor(hourStart(receivedAt));
    if (frame || rows.every((row) => hourStart(row.receivedAt) === journal.start)) {
      journal.append(rows, frame);
      return;
    }
    for (const row of rows) this.journalFor(hourStart(row.receivedAt)).append([row]);
  }

  /** Records that the books of `assetIds` (every token when absent) are unknown between `from` and `to`, whatever hours that spans. */
  markGap(gap: GapMarker): void {
    this.gaps.add(gap);
  }

  /** Writes and syncs what was appended; returns once it survives a crash. */
  flush(): void {
    this.open?.flush();
  }

  /** Milliseconds the oldest unflushed row has waited. */
  get journalLagMs(): number {
    const oldest = this.open?.oldestUnflushedAt;
    return oldest === undefined ? 0 : Math.max(0, Date.now() - oldest);
  }

  /** Seals the open hour when the clock has left it, and waits for every sealed hour to be rolled. */
  async rollDue(): Promise<void> {
    if (this.open && hourStart(this.now()) > this.open.start) this.journalFor(hourStart(this.now()));
    await this.rolling;
  }

  bookAt(assetId: string, since: number): Promise<BookSnapshot | undefined> {
    this.refreshListing();
    return bookAt(this, assetId, since, this.reconstructOptions());
  }

  booksBetween(assetId: string, range: { since: number; until: number; limit: number }): Promise<BookSnapshot[]> {
    this.refreshListing();
    return booksBetween(this, assetId, range, this.reconstructOptions());
  }

  async assetHour(start: number, assetId: string, since: number, until?: number): Promise<AssetHour | undefined> {
    const journal = this.journals.get(start);
    if (journal) return journal.assetHour(assetId, since, until);
    const facts = this.publishedFacts(start);
    // Hours after the latest published one may still be in the recording process's journal (open, or being rolled).
    if (!facts) return this.options.openHours && start > this.latestPublished() ? this.options.openHours.assetHour(start, assetId, since, until) : undefined;
    const index = this.hourIndex(start);
    // An hour rolled before hours had an index: nothing to read it by until the writing archive indexes it (see `reindexUnindexed`).
    if (!index) return undefined;
    const token = index.token(assetId);
    // A token without a checkpoint in the hour never had a known book in it: its rows there describe nothing.
    if (!token || token.checkpoints.length === 0) return { start, rows: [], checkpoints: [] };
    // Its latest checkpoint at or before `since` and the rows after it up to `until`; without one, every row of the hour (replay starts before it).
    let chosen: IndexedCheckpoint | undefined;
    for (const checkpoint of token.checkpoints) if (checkpoint.timestamp <= since) chosen = checkpoint;
    const from = chosen?.row ?? 0;
    const to = until === undefined ? token.rows : (checkpointPast(token.checkpoints, chosen, Math.max(since, until))?.row ?? token.rows);
    // Not kept: a closed hour's rows are read again for each query. Kept rows (512 queries' worth) outlived young
    // collections, so every query's garbage was copied and promoted, and that was most of a `since`'s slowest times.
    const rows = await this.reader.rows(
      join(this.filesDir, facts.name),
      { from: token.firstRow + from, to: token.firstRow + to, firstOrdinal: from },
      { market: token.market, assetId },
    );
    const checkpoints: Checkpoint[] = chosen ? [{ assetId, row: chosen.row, snapshot: index.snapshot(chosen) }] : [];
    return { start, rows, checkpoints };
  }

  /** A published hour's index (its directory read once; the last few hours asked kept, each some megabytes at tens of thousands of tokens). */
  private hourIndex(start: number): HourIndex | undefined {
    let index = this.indexes.get(start);
    if (index) {
      this.indexes.delete(start);
    } else {
      if (!existsSync(this.checkpointPath(start))) return undefined;
      index = HourIndex.open(this.checkpointPath(start));
      if (this.indexes.size >= 4) {
        const [oldest, held] = this.indexes.entries().next().value!;
        held.close();
        this.indexes.delete(oldest);
      }
    }
    this.indexes.set(start, index);
    return index;
  }

  private latestPublished(): number {
    let latest = Number.NEGATIVE_INFINITY;
    for (const start of this.facts.keys()) latest = Math.max(latest, start);
    return latest;
  }

  /** Published hourly files, oldest first; the open hour is not among them until it is rolled. */
  listFiles(): ArchiveFile[] {
    this.refreshListing();
    return [...this.facts.values()]
      .filter((facts) => this.dataFiles.has(facts.name))
      .sort((a, b) => a.hour.localeCompare(b.hour))
      .map(({ name, hour, size, rows, sha256 }) => ({ name, hour, size, rows, sha256 }));
  }

  /** The path of a published file, or undefined for any other name. */
  filePath(name: string): string | undefined {
    return this.listFiles().some((file) => file.name === name) ? join(this.filesDir, name) : undefined;
  }

  /** Checks every published file against its recorded size, row count and SHA-256. */
  async verify(): Promise<{ file: string; problem?: string }[]> {
    const results: { file: string; problem?: string }[] = [];
    for (const file of this.listFiles()) {
      const path = join(this.filesDir, file.name);
      const problems: string[] = [];
      if (statSync(path).size !== file.size) problems.push(`size ${statSync(path).size} differs from ${file.size}`);
      if ((await fileSha256(path)) !== file.sha256) problems.push('SHA-256 differs');
      const rows = await this.reader.countRows(path).catch((error: unknown) => {
        problems.push(`unreadable: ${(error as Error).message}`);
        return file.rows;
      });
      if (rows !== file.rows) problems.push(`${rows} rows, ${file.rows} recorded`);
      results.push(problems.length > 0 ? { file: file.name, problem: problems.join('; ') } : { file: file.name });
    }
    return results;
  }

  /**
   * Loads hourly files in pmxt's v2 format, one hour at a time in bounded memory.
   * Rows merge into the hour already held; a row held before (same venue event, whoever received it) counts once.
   */
  importFiles(paths: string[]): Promise<ImportReport> {
    return importHourFiles(this, paths, {
      memoryLimit: this.options.rollMemoryLimit ?? '512MB',
      checkpointEvery: this.policy.every,
      isRecording: (hour) => this.journals.has(hour) || existsSync(this.journalPath(hour)),
    });
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.flush();
    await this.rolling;
    for (const journal of this.journals.values()) journal.close();
    for (const index of this.indexes.values()) index.close();
    this.indexes.clear();
    await this.reader.close();
  }

  /**
   * Where an hour's files go. Each roll (or import) attempt writes inside its
   * own scratch folder, so a roll left running by a killed process can never
   * touch the files of the attempt that replaces it; the importer uses it too.
   */
  hourPaths(start: number): HourPaths {
    const name = hourFileName(start);
    const workDir = join(this.indexDir, `.tmp-${hourKey(start)}-${process.pid}-${(attempts += 1)}`);
    return {
      name,
      data: join(this.filesDir, name),
      checkpoints: this.checkpointPath(start),
      workDir,
      dataTemp: join(workDir, name),
      checkpointsTemp: join(workDir, 'index'),
    };
  }

  /** The checkpoints held for an hour, by token: the books carried into the hour after it. */
  factsFor(start: number): HourFacts | undefined {
    this.refreshListing();
    return this.publishedFacts(start);
  }

  /** A published hour's facts by the listing as last refreshed: a query refreshes it once, not once for each hour it looks back over. */
  private publishedFacts(start: number): HourFacts | undefined {
    const facts = this.facts.get(start);
    return facts && this.dataFiles.has(facts.name) ? facts : undefined;
  }

  /**
   * Lists `index/` and `files/` again when they changed since last listed: this
   * process or another (the recording process, an import) may have published
   * an hour. A listing taken within a second of a folder's change is taken again
   * next time, as a second change in the same tick of the file system's clock
   * would leave the folder's time as it was.
   */
  private refreshListing(): void {
    const trusted = (changedAt: number) => (Date.now() - changedAt > 1_000 ? changedAt : -1);
    const indexChanged = statSync(this.indexDir).mtimeMs;
    if (indexChanged !== this.listedAt.index) {
      this.loadFacts();
      this.listedAt.index = trusted(indexChanged);
    }
    const filesChanged = statSync(this.filesDir).mtimeMs;
    if (filesChanged !== this.listedAt.files) {
      this.dataFiles.clear();
      for (const name of readdirSync(this.filesDir)) this.dataFiles.add(name);
      this.listedAt.files = trusted(filesChanged);
    }
  }

  /** Publishes an hour whose files were written to their temporary names: checkpoints and facts first, the data file last. */
  async publish(start: number, paths: HourPaths, result: RollResult): Promise<void> {
    await syncPath(paths.dataTemp);
    await syncPath(paths.checkpointsTemp);
    renameSync(paths.checkpointsTemp, paths.checkpoints);
    const facts: HourFacts = {
      name: paths.name,
      hour: new Date(start).toISOString(),
      size: statSync(paths.dataTemp).size,
      rows: result.rows,
      sha256: await fileSha256(paths.dataTemp),
      ...(result.lastReceivedAt !== undefined ? { lastReceivedAt: result.lastReceivedAt } : {}),
    };
    await writeFileDurably(this.factsPath(start), JSON.stringify(facts));
    renameSync(paths.dataTemp, paths.data);
    await syncPath(this.indexDir);
    await syncPath(this.filesDir);
    this.facts.set(start, facts);
    this.dataFiles.add(paths.name);
    // A republished hour (an import merged into it) is new files under the same names.
    this.indexes.get(start)?.close();
    this.indexes.delete(start);
    await this.reader.forget(paths.data);
  }

  private reconstructOptions() {
    return {
      lookbackHours: this.lookbackHours,
      // The gap log is looked at once per query, not once per book of a range.
      gapOf: this.gaps.reader(),
    };
  }

  /** The journal of the hour starting at `start`, sealing (and rolling) the open hour when the clock moved past it. */
  private journalFor(start: number): HourJournal {
    if (this.open && start <= this.open.start) return this.journals.get(start) ?? this.open;
    const previous = this.open;
    previous?.close();
    const journal = HourJournal.create(start, this.journalPath(start), this.books, this.policy, this.now);
    syncPathSync(this.journalDir);
    this.journals.set(start, journal);
    this.open = journal;
    if (previous) {
      // The closed hour's journal goes once rolled: not before the books it carries into the new hour are synced there.
      const carried = journal.carriedIn.then(() => journal.flush());
      this.rolling = this.rolling.then(() => carried).then(() => this.roll(previous));
    }
    return journal;
  }

  /** Rolls a closed hour's journal into its files in a child process, then publishes them and removes the journal. */
  private async roll(journal: HourJournal): Promise<void> {
    const started = performance.now();
    const result = await this.rollAndPublish(journal.start, { journalPath: journal.path });
    rmSync(journal.path, { force: true });
    this.journals.delete(journal.start);
    this.lastRoll = { ...result, hour: hourKey(journal.start), ms: performance.now() - started };
  }

  /**
   * Hours rolled before hours had an index count as holding no data: each is
   * rolled again from its own file (same rows, now with its index), oldest
   * first so each carries in the books of the hour before, one at a time
   * after the rolls already due. One that cannot be is left as it was.
   */
  private reindexUnindexed(): void {
    const unindexed = [...this.facts.keys()].filter((start) => this.factsFor(start) && !existsSync(this.checkpointPath(start))).sort((a, b) => a - b);
    for (const start of unindexed) {
      const reindex = { file: join(this.filesDir, this.factsFor(start)!.name), start, previousIndex: this.checkpointPath(previousHour(start)) };
      this.rolling = this.rolling.then(() =>
        this.rollAndPublish(start, { reindex }).then(
          () => undefined,
          (error: unknown) => process.emitWarning(`the archive's hour ${hourKey(start)} could not be indexed: ${(error as Error).message}`),
        ),
      );
    }
  }

  /** Rolls an hour from its journal (or, to index it, its published file) in a child process, then publishes the files. */
  private async rollAndPublish(start: number, source: Pick<RollJob, 'journalPath' | 'reindex'>): Promise<RollResult> {
    const paths = this.hourPaths(start);
    rmSync(paths.workDir, { recursive: true, force: true });
    mkdirSync(paths.workDir, { recursive: true });
    const job: RollJob = {
      ...source,
      stagedPath: join(paths.workDir, 'staged.tsv'),
      dataPath: paths.dataTemp,
      checkpointPath: paths.checkpointsTemp,
      workDir: paths.workDir,
      checkpointEvery: this.policy.every,
      memoryLimit: this.options.rollMemoryLimit ?? '512MB',
    };
    const result = this.options.rollInChildProcess === false ? await rollJob(job) : await runRollWorker(job);
    await this.publish(start, paths, result);
    rmSync(paths.workDir, { recursive: true, force: true });
    return result;
  }

  /** Rolls journals of closed hours, reopens the open hour's journal, and marks the time not recording as a gap. */
  private async recover(): Promise<void> {
    for (const dir of [this.filesDir, this.indexDir]) {
      // Roll scratch folders and durable-write temporaries a crash left behind.
      for (const name of readdirSync(dir)) if (name.startsWith('.tmp-') || name.endsWith('.tmp')) rmSync(join(dir, name), { recursive: true, force: true });
    }
    const journals = readdirSync(this.journalDir)
      .map((name) => ({ name, start: hourFromKey(name.replace(/\.jsonl$/, '')) }))
      .filter((entry): entry is { name: string; start: number } => entry.start !== undefined && entry.name.endsWith('.jsonl'))
      .sort((a, b) => a.start - b.start);
    let lastSeen = [...this.facts.values()].reduce<number | undefined>(
      (latest, facts) => Math.max(latest ?? 0, facts.lastReceivedAt ?? 0) || latest,
      undefined,
    );
    // Only the latest journal can stay open, even if the clock now reads an earlier hour.
    const current = Math.max(hourStart(this.now()), journals.at(-1)?.start ?? Number.NEGATIVE_INFINITY);
    for (const { start } of journals) {
      const journal = HourJournal.recover(start, this.journalPath(start), this.books, this.policy, this.now);
      if (journal.lastSeenAt !== undefined) lastSeen = Math.max(lastSeen ?? journal.lastSeenAt, journal.lastSeenAt);
      this.journals.set(start, journal);
      if (start < current) {
        journal.close();
        await this.roll(journal);
      } else {
        this.open = journal;
      }
    }
    const recordedUntil = Math.max(lastSeen ?? Number.NEGATIVE_INFINITY, this.gaps.lastTo ?? Number.NEGATIVE_INFINITY);
    if (Number.isFinite(recordedUntil) && recordedUntil < this.now()) {
      this.markGap({ from: recordedUntil, to: this.now(), reason: 'archive not recording (restart)' });
    }
  }

  private loadFacts(): void {
    for (const name of readdirSync(this.indexDir)) {
      const start = hourFromKey(name.replace(/\.json$/, ''));
      if (start === undefined || !name.endsWith('.json') || this.facts.has(start)) continue;
      this.facts.set(start, JSON.parse(readFileSync(join(this.indexDir, name), 'utf8')) as HourFacts);
    }
  }

  private journalPath(start: number): string {
    return join(this.journalDir, `${hourKey(start)}.jsonl`);
  }

  /** The hour's index: its checkpoints and where each token's rows are in its file (see hour-index.ts). */
  checkpointPath(start: number): string {
    return join(this.indexDir, `${hourKey(start)}.index`);
  }

  private factsPath(start: number): string {
    return join(this.indexDir, `${hourKey(start)}.json`);
  }
}

export type { Checkpoint };

/** Rolls in a child process of its own. */
function runRollWorker(job: RollJob): Promise<RollResult> {
  const child = forkArchiveProcess('roll-process', job);
  return new Promise((resolve, reject) => {
    let result: RollResult | undefined;
    child.once('message', (message: RollResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`rolling an hour stopped with exit code ${code}`))));
  });
}

function fileSha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
