import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { BookState, readMarketFrame } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { hourFileName, hourFromKey, hourKey, hourStart } from './hours.js';
import { ParquetFiles } from './parquet.js';
import { bookAt, booksBetween } from './reconstruct.js';
import type { AssetHour, Checkpoint, HourSource, IndexedRow } from './reconstruct.js';
import { rowIdentity } from './rows.js';
import type { GapMarker } from './rows.js';

export interface ArchiveOptions {
  /** The archive's folder: `journal/` (the open hour), `files/` (published hourly Parquet), `index/` (checkpoints and file facts). */
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
}

/** A published hourly file, as `GET /archive/files` lists it. */
export interface ArchiveFile {
  name: string;
  /** Start of the UTC hour, ISO 8601. */
  hour: string;
  size: number;
  rows: number;
  sha256: string;
}

interface HourFacts extends ArchiveFile {
  gaps: GapMarker[];
}

/** An hour still in memory: the open hour, or one sealed and waiting to be rolled into Parquet. */
interface MemoryHour {
  start: number;
  rows: IndexedRow[];
  checkpoints: Checkpoint[];
  gaps: GapMarker[];
  byAsset: Map<string, IndexedRow[]>;
  checkpointsByAsset: Map<string, Checkpoint[]>;
}

export interface ImportReport {
  files: number;
  hours: string[];
  rows: number;
  /** Rows already held (recorded or imported before): counted once. */
  duplicates: number;
}

/**
 * Polymarket's market-channel history: an append-only journal for the open
 * hour, one Parquet file per closed UTC hour, and full-book checkpoints per
 * token so any reconstruction replays a bounded number of rows.
 *
 * Crash safety: journal lines are synced before they count as flushed; an
 * hour is rolled by writing temporary files, syncing them and renaming the
 * data file last, and the journal is removed only after that, so a kill at
 * any point leaves either the journal (rolled again on the next start) or the
 * finished file, never half a file under a published name.
 */
export class PolymarketArchive implements HourSource {
  private readonly journalDir: string;
  private readonly filesDir: string;
  private readonly indexDir: string;
  private readonly now: () => number;
  private readonly checkpointEvery: number;
  private readonly lookbackHours: number;
  private readonly facts = new Map<number, HourFacts>();
  private readonly memory = new Map<number, MemoryHour>();
  private readonly cache = new Map<string, AssetHour>();
  private readonly checkpointCache = new Map<number, Map<string, Checkpoint[]>>();
  private readonly books = new Map<string, BookState>();
  private readonly rowsSinceCheckpoint = new Map<string, number>();
  private open: MemoryHour | undefined;
  private journal: number | undefined;
  private buffer: string[] = [];
  private oldestUnflushed: number | undefined;
  private rolling: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: ArchiveOptions,
    private readonly parquet: ParquetFiles,
  ) {
    this.journalDir = join(options.dir, 'journal');
    this.filesDir = join(options.dir, 'files');
    this.indexDir = join(options.dir, 'index');
    this.now = options.now ?? Date.now;
    this.checkpointEvery = options.checkpointEvery ?? 500;
    this.lookbackHours = options.lookbackHours ?? 24;
  }

  static async open(options: ArchiveOptions): Promise<PolymarketArchive> {
    const archive = new PolymarketArchive(options, await ParquetFiles.open());
    for (const dir of [archive.journalDir, archive.filesDir, archive.indexDir]) mkdirSync(dir, { recursive: true });
    archive.loadFacts();
    if ((options.mode ?? 'write') === 'write') {
      await archive.recover();
      const interval = options.flushIntervalMs ?? 200;
      archive.timer = setInterval(() => archive.flush(), interval);
      archive.timer.unref();
    }
    return archive;
  }

  /**
   * Adds rows in receive order; they are durable after the next `flush()`.
   * The rows become the archive's: each is given its position in its hour (no copy, on the hot path).
   */
  append(rows: MarketRow[], frame?: { text: string; receivedAt: number }): void {
    if (frame) {
      // The frame's text is journalled instead of its rows (all read from it, all received at once):
      // far cheaper than serialising each row, and recovery reads the frame again.
      const hour = hourStart(frame.receivedAt);
      if (!this.open || hour > this.open.start) this.startHour(hour);
      // A newline inside a JSON text can only be whitespace.
      this.writeLine(`F${frame.receivedAt} ${frame.text.replaceAll('\n', ' ')}\n`);
    }
    for (const row of rows) {
      const hour = hourStart(row.receivedAt);
      if (!this.open || hour > this.open.start) this.startHour(hour);
      const open = this.open!;
      const indexed = row as IndexedRow;
      indexed.row = open.rows.length;
      this.addRow(open, indexed);
      if (!frame) this.write({ r: indexed });
      if (!row.assetId) continue;
      let book = this.books.get(row.assetId);
      if (!book) this.books.set(row.assetId, (book = new BookState(row.assetId)));
      book.apply(row);
      const count = (this.rowsSinceCheckpoint.get(row.assetId) ?? 0) + 1;
      this.rowsSinceCheckpoint.set(row.assetId, count);
      if (count >= this.checkpointEvery && book.known) this.checkpoint(open, book, indexed.row + 1, row.receivedAt);
    }
  }

  /** Records that the books of `assetIds` (every token when absent) are unknown between `from` and `to`. */
  markGap(gap: GapMarker): void {
    const hour = hourStart(gap.to);
    if (!this.open || hour > this.open.start) this.startHour(hour);
    this.open!.gaps.push(gap);
    this.write({ g: gap });
    for (const book of this.books.values()) book.markGap(gap);
  }

  /** Writes and syncs what was appended; returns once it survives a crash. */
  flush(): void {
    if (this.journal === undefined || this.buffer.length === 0) return;
    writeSync(this.journal, this.buffer.join(''));
    fdatasyncSync(this.journal);
    this.buffer = [];
    this.oldestUnflushed = undefined;
  }

  /** Milliseconds the oldest unflushed row has waited. */
  get journalLagMs(): number {
    return this.oldestUnflushed === undefined ? 0 : Math.max(0, this.now() - this.oldestUnflushed);
  }

  /** Seals the open hour when the clock has left it, and waits for every sealed hour to be rolled. */
  async rollDue(): Promise<void> {
    if (this.open && hourStart(this.now()) > this.open.start) this.startHour(hourStart(this.now()));
    await this.rolling;
  }

  bookAt(assetId: string, since: number): Promise<BookSnapshot | undefined> {
    return bookAt(this, assetId, since, { lookbackHours: this.lookbackHours });
  }

  booksBetween(assetId: string, range: { since: number; until: number; limit: number }): Promise<BookSnapshot[]> {
    return booksBetween(this, assetId, range, { lookbackHours: this.lookbackHours });
  }

  async assetHour(start: number, assetId: string): Promise<AssetHour | undefined> {
    const inMemory = this.memory.get(start);
    if (inMemory) {
      return { start, rows: inMemory.byAsset.get(assetId) ?? [], checkpoints: inMemory.checkpointsByAsset.get(assetId) ?? [], gaps: inMemory.gaps };
    }
    const facts = this.factsFor(start);
    if (!facts) return undefined;
    const key = `${start}:${assetId}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const rows = await this.parquet.readAssetRows(join(this.filesDir, facts.name), assetId);
    const checkpoints = (await this.hourCheckpoints(start)).get(assetId) ?? [];
    const hour = { start, rows, checkpoints, gaps: facts.gaps };
    this.cache.set(key, hour);
    if (this.cache.size > 512) this.cache.delete(this.cache.keys().next().value!);
    return hour;
  }

  private async hourCheckpoints(start: number): Promise<Map<string, Checkpoint[]>> {
    const cached = this.checkpointCache.get(start);
    if (cached) return cached;
    const path = this.checkpointPath(start);
    const checkpoints = existsSync(path) ? await this.parquet.readCheckpoints(path) : new Map<string, Checkpoint[]>();
    this.checkpointCache.set(start, checkpoints);
    if (this.checkpointCache.size > 48) this.checkpointCache.delete(this.checkpointCache.keys().next().value!);
    return checkpoints;
  }

  /** Published hourly files, oldest first; the open hour is not among them until it is rolled. */
  listFiles(): ArchiveFile[] {
    this.loadFacts();
    return [...this.facts.values()]
      .filter((facts) => existsSync(join(this.filesDir, facts.name)))
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
      const sha256 = await fileSha256(path);
      if (sha256 !== file.sha256) problems.push('SHA-256 differs');
      const rows = await this.parquet.countRows(path).catch((error: unknown) => {
        problems.push(`unreadable: ${(error as Error).message}`);
        return file.rows;
      });
      if (rows !== file.rows) problems.push(`${rows} rows, ${file.rows} recorded`);
      results.push(problems.length > 0 ? { file: file.name, problem: problems.join('; ') } : { file: file.name });
    }
    return results;
  }

  /**
   * Loads hourly files in pmxt's v2 format. Rows merge into the hour files
   * already held; a row held before (same venue event, whoever received it) counts once.
   */
  async importFiles(paths: string[]): Promise<ImportReport> {
    const byHour = new Map<number, IndexedRow[]>();
    for (const path of paths) {
      for (const row of await this.parquet.readAllRows(path)) {
        const hour = hourStart(row.receivedAt);
        if (this.memory.has(hour) || existsSync(this.journalPath(hour))) {
          throw new Error(`${path} holds rows of ${hourKey(hour)}, an hour still being recorded; import it once that hour is rolled`);
        }
        let rows = byHour.get(hour);
        if (!rows) byHour.set(hour, (rows = []));
        rows.push(row);
      }
    }
    const report: ImportReport = { files: paths.length, hours: [], rows: 0, duplicates: 0 };
    for (const hour of [...byHour.keys()].sort((a, b) => a - b)) {
      const facts = this.factsFor(hour);
      const held = facts ? await this.parquet.readAllRows(join(this.filesDir, facts.name)) : [];
      const seen = new Set(held.map(rowIdentity));
      const merged: MarketRow[] = held.map(stripPosition);
      for (const row of byHour.get(hour)!) {
        const identity = rowIdentity(row);
        if (seen.has(identity)) {
          report.duplicates += 1;
          continue;
        }
        seen.add(identity);
        merged.push(stripPosition(row));
        report.rows += 1;
      }
      merged.sort((a, b) => a.receivedAt - b.receivedAt);
      const checkpoints = await this.checkpointsFor(hour, merged);
      await this.writeHour(hour, merged, checkpoints, facts?.gaps ?? []);
      report.hours.push(hourKey(hour));
    }
    return report;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.flush();
    await this.rolling;
    if (this.journal !== undefined) closeSync(this.journal);
    this.journal = undefined;
    this.parquet.close();
  }

  private startHour(start: number): void {
    const previous = this.open;
    if (previous) {
      this.flush();
      closeSync(this.journal!);
      this.journal = undefined;
      this.rolling = this.rolling.then(() => this.roll(previous));
    }
    const hour = emptyHour(start);
    this.memory.set(start, hour);
    this.open = hour;
    this.journal = openSync(this.journalPath(start), 'a');
    syncDir(this.journalDir);
    // Every known book is carried into the new hour, so a reconstruction never has to read the hour before.
    for (const book of this.books.values()) if (book.known) this.checkpoint(hour, book, 0, start);
  }

  private checkpoint(hour: MemoryHour, book: BookState, row: number, receivedAt: number): void {
    const checkpoint: Checkpoint = { assetId: book.assetId, row, receivedAt, snapshot: book.snapshot() };
    this.addCheckpoint(hour, checkpoint);
    this.write({ c: checkpoint });
    this.rowsSinceCheckpoint.set(book.assetId, 0);
  }

  private addRow(hour: MemoryHour, row: IndexedRow): void {
    hour.rows.push(row);
    let rows = hour.byAsset.get(row.assetId);
    if (!rows) hour.byAsset.set(row.assetId, (rows = []));
    rows.push(row);
  }

  private addCheckpoint(hour: MemoryHour, checkpoint: Checkpoint): void {
    hour.checkpoints.push(checkpoint);
    let list = hour.checkpointsByAsset.get(checkpoint.assetId);
    if (!list) hour.checkpointsByAsset.set(checkpoint.assetId, (list = []));
    list.push(checkpoint);
  }

  private write(line: object): void {
    this.writeLine(`${JSON.stringify(line)}\n`);
  }

  private writeLine(line: string): void {
    this.buffer.push(line);
    this.oldestUnflushed ??= this.now();
  }

  private async roll(hour: MemoryHour): Promise<void> {
    await this.writeHour(hour.start, hour.rows, hour.checkpoints, hour.gaps);
    rmSync(this.journalPath(hour.start), { force: true });
    this.memory.delete(hour.start);
  }

  /** Writes one hour's files: checkpoints and facts first, the published data file last, each through a synced temporary file. */
  private async writeHour(start: number, rows: MarketRow[], checkpoints: Checkpoint[], gaps: GapMarker[]): Promise<void> {
    const name = hourFileName(start);
    const dataTemp = join(this.filesDir, `.tmp-${name}`);
    const checkpointTemp = join(this.indexDir, `.tmp-${hourKey(start)}.checkpoints.parquet`);
    await this.parquet.writeRows(dataTemp, rows);
    syncFile(dataTemp);
    await this.parquet.writeCheckpoints(checkpointTemp, checkpoints);
    syncFile(checkpointTemp);
    renameSync(checkpointTemp, this.checkpointPath(start));
    const facts: HourFacts = {
      name,
      hour: new Date(start).toISOString(),
      size: statSync(dataTemp).size,
      rows: rows.length,
      sha256: await fileSha256(dataTemp),
      gaps,
    };
    const factsTemp = join(this.indexDir, `.tmp-${hourKey(start)}.json`);
    writeFileSync(factsTemp, JSON.stringify(facts));
    syncFile(factsTemp);
    renameSync(factsTemp, this.factsPath(start));
    renameSync(dataTemp, join(this.filesDir, name));
    syncDir(this.indexDir);
    syncDir(this.filesDir);
    this.facts.set(start, facts);
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${start}:`)) this.cache.delete(key);
    this.checkpointCache.delete(start);
  }

  /** Checkpoints for an hour rebuilt from its rows, books carried in from the hour before. */
  private async checkpointsFor(start: number, rows: MarketRow[]): Promise<Checkpoint[]> {
    const assets = [...new Set(rows.map((row) => row.assetId).filter(Boolean))];
    const books = new Map<string, BookState>();
    const counts = new Map<string, number>();
    const checkpoints: Checkpoint[] = [];
    for (const assetId of assets) {
      const carried = await this.bookAt(assetId, start - 1);
      if (!carried) continue;
      const book = BookState.from(carried);
      books.set(assetId, book);
      checkpoints.push({ assetId, row: 0, receivedAt: start, snapshot: book.snapshot() });
    }
    rows.forEach((row, index) => {
      if (!row.assetId) return;
      let book = books.get(row.assetId);
      if (!book) books.set(row.assetId, (book = new BookState(row.assetId)));
      book.apply(row);
      const count = (counts.get(row.assetId) ?? 0) + 1;
      counts.set(row.assetId, count);
      if (count >= this.checkpointEvery && book.known) {
        checkpoints.push({ assetId: row.assetId, row: index + 1, receivedAt: row.receivedAt, snapshot: book.snapshot() });
        counts.set(row.assetId, 0);
      }
    });
    return checkpoints;
  }

  /** Rolls journals of closed hours, reopens the open hour's journal, and marks the downtime as a gap. */
  private async recover(): Promise<void> {
    for (const dir of [this.filesDir, this.indexDir]) {
      for (const name of readdirSync(dir)) if (name.startsWith('.tmp-')) rmSync(join(dir, name), { force: true });
    }
    let lastSeen: number | undefined;
    const journals = readdirSync(this.journalDir)
      .map((name) => ({ name, start: hourFromKey(name.replace(/\.jsonl$/, '')) }))
      .filter((entry): entry is { name: string; start: number } => entry.start !== undefined && entry.name.endsWith('.jsonl'))
      .sort((a, b) => a.start - b.start);
    // Only the latest journal can stay open, even if the clock now reads an earlier hour.
    const current = Math.max(hourStart(this.now()), journals.at(-1)?.start ?? Number.NEGATIVE_INFINITY);
    for (const { start } of journals) {
      const hour = this.readJournal(start);
      const last = hour.rows.at(-1)?.receivedAt ?? hour.gaps.at(-1)?.to;
      if (last !== undefined) lastSeen = Math.max(lastSeen ?? last, last);
      if (start < current) {
        await this.roll(hour);
      } else {
        this.memory.set(start, hour);
        this.open = hour;
        this.journal = openSync(this.journalPath(start), 'a');
      }
    }
    if (lastSeen !== undefined) this.markGap({ from: lastSeen, to: this.now(), reason: 'archive not recording (restart)' });
  }

  /** A journal's complete lines; a torn last line (a crash mid-write) was never flushed and is cut off. */
  private readJournal(start: number): MemoryHour {
    const path = this.journalPath(start);
    const text = readFileSync(path, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) {
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, Buffer.byteLength(text.slice(0, complete)));
      fsyncSync(fd);
      closeSync(fd);
    }
    const hour = emptyHour(start);
    const replay = (row: MarketRow) => {
      this.addRow(hour, { ...row, row: hour.rows.length });
      let book = this.books.get(row.assetId);
      if (row.assetId && !book) this.books.set(row.assetId, (book = new BookState(row.assetId)));
      book?.apply(row);
    };
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line) continue;
      if (line.startsWith('F')) {
        const space = line.indexOf(' ');
        for (const row of readMarketFrame(line.slice(space + 1), Number(line.slice(1, space)))) replay(row);
        continue;
      }
      const entry = JSON.parse(line) as { r?: MarketRow; c?: Checkpoint; g?: GapMarker };
      if (entry.r) {
        replay(entry.r);
      } else if (entry.c) {
        this.addCheckpoint(hour, entry.c);
        this.books.set(entry.c.assetId, BookState.from(entry.c.snapshot));
      } else if (entry.g) {
        hour.gaps.push(entry.g);
        for (const book of this.books.values()) book.markGap(entry.g);
      }
    }
    return hour;
  }

  private loadFacts(): void {
    for (const name of readdirSync(this.indexDir)) {
      const start = hourFromKey(name.replace(/\.json$/, ''));
      if (start === undefined || !name.endsWith('.json') || this.facts.has(start)) continue;
      this.facts.set(start, JSON.parse(readFileSync(join(this.indexDir, name), 'utf8')) as HourFacts);
    }
  }

  private factsFor(start: number): HourFacts | undefined {
    if (!this.facts.has(start) && existsSync(this.factsPath(start))) {
      this.facts.set(start, JSON.parse(readFileSync(this.factsPath(start), 'utf8')) as HourFacts);
    }
    const facts = this.facts.get(start);
    return facts && existsSync(join(this.filesDir, facts.name)) ? facts : undefined;
  }

  private journalPath(start: number): string {
    return join(this.journalDir, `${hourKey(start)}.jsonl`);
  }

  private checkpointPath(start: number): string {
    return join(this.indexDir, `${hourKey(start)}.checkpoints.parquet`);
  }

  private factsPath(start: number): string {
    return join(this.indexDir, `${hourKey(start)}.json`);
  }
}

function emptyHour(start: number): MemoryHour {
  return { start, rows: [], checkpoints: [], gaps: [], byAsset: new Map(), checkpointsByAsset: new Map() };
}

function stripPosition(row: IndexedRow): MarketRow {
  const { row: _position, ...rest } = row;
  return rest;
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** Syncs a directory, so the renames and creations inside it are durable. */
function syncDir(path: string): void {
  const fd = openSync(path, 'r');
  fsyncSync(fd);
  closeSync(fd);
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
