import { existsSync } from 'node:fs';
import { appendFile, mkdir, open, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from '@predgate/core';
import type { SweepRecord } from '../store.js';
import { byteLines } from './byte-lines.js';
import { leftOut, packedTextIn } from './entry-keys.js';
import { piecesFit } from './event-json.js';
import { FileBytes, SequentialCopier } from './file-bytes.js';
import { NumberBlocks } from './number-blocks.js';
import type { EventBytes, FileRange } from './file-bytes.js';

/** The catalog as read from disk: every venue's events (by venue event id, as the reader made them) and last complete sweep. */
export interface CatalogState<T> {
  sweeps: Map<string, SweepRecord>;
  events: Map<string, Map<string, T>>;
}

/**
 * Makes what the store keeps of an event as its line is read, so nothing of
 * the line's parse outlives it: kept until the whole file was read, it would
 * be copied into the old generation and collected there, which is most of
 * what a start would spend in the garbage collector.
 */
export type EventReader<T> = (venue: string, venueEventId: string, event: LoadedEvent) => T;

/**
 * An event read back: where its stored JSON bytes are in the snapshot or the
 * journal (they are read from there when asked for, not loaded), where its
 * binary references were (absent in files written before they were kept
 * apart), and its keys, parsed, where the snapshot holds them.
 */
export interface LoadedEvent {
  bytes: FileRange;
  /** The Router's view, or its shell where `routerPieces` are given (files written before views were kept hold neither). */
  router?: FileRange;
  routerPieces?: Uint32Array;
  refs?: string;
  keys?: unknown;
  /** The keys' packed text, where the keys were parsed without it (see entry-keys.ts's `PackedMarkets`). */
  keysText?: FileRange;
  /** The event as parsed to check it whole, where its file was checked so (the journal): not parsed again. */
  parsed?: unknown;
}

/** One event as the files hold it: its stored JSON and references, and (in the snapshot) its index keys as JSON. */
export interface StoredEvent {
  venue: string;
  venueEventId: string;
  /** In memory (a sweep not yet written), or in one of the store's files. */
  json: EventBytes;
  refs: string;
  /** The Router's view, or its shell and pieces (see event-json.ts), where the store made it. */
  router?: EventBytes | undefined;
  routerPieces?: Uint32Array | undefined;
  keys?: string;
}

/** Where `append` or `snapshot` wrote an event's bytes and its Router view. */
export interface Placed {
  json: FileRange;
  router?: FileRange | undefined;
}

/** What a committed sweep changed: events new or different, and events gone. */
export interface SweepChange {
  sweep: SweepRecord;
  upserts: StoredEvent[];
  removals: string[];
}

/**
 * The embedded store on disk: a snapshot of the whole catalog plus a journal
 * of the sweeps committed since. In the journal a sweep is a `begin` line, one
 * line per new or changed event, and a `commit` line; it counts only once its
 * commit line is on disk (fsync), so `kill -9` right after loses nothing, and a
 * sweep cut short by a crash was never committed and is ignored. One line per
 * event keeps every line small, whatever the size of the venue. The snapshot is
 * written beside and renamed over, then the journal is started afresh.
 *
 * Events' bytes are served from these files (see file-bytes.ts): `append`
 * and `snapshot` answer where each event they wrote is, and a file replaced
 * by a snapshot stays open a while for reads already under way.
 */
export class CatalogFiles {
  private readonly snapshotPath: string;
  private readonly journalPath: string;
  private sequence = 0;
  private snapshotFile: FileBytes | undefined;
  private journalFile: FileBytes | undefined;

  constructor(private readonly dir: string) {
    this.snapshotPath = join(dir, 'snapshot.ndjson');
    this.journalPath = join(dir, 'journal.ndjson');
  }

  async load<T>(read: EventReader<T>): Promise<CatalogState<T>> {
    await mkdir(this.dir, { recursive: true });
    const state: CatalogState<T> = { sweeps: new Map(), events: new Map() };
    let snapshotSequence = 0;
    if (existsSync(this.snapshotPath)) {
      const snapshot = (this.snapshotFile = new FileBytes(this.snapshotPath));
      const pieceBlocks = routerPieceBlocks();
      let header = true;
      let lineStart = 0;
      for await (const line of byteLines(this.snapshotPath)) {
        const at = lineStart;
        lineStart += line.length + 1;
        if (header) {
          const parsed = JSON.parse(line.toString('utf8')) as { sequence: number; sweeps: SweepRecord[] };
          snapshotSequence = parsed.sequence;
          for (const sweep of parsed.sweeps) state.sweeps.set(sweep.venue, sweep);
          header = false;
          continue;
        }
        const { head, event, router, routerPieces, leftOutAt } = eventLine<{ venue: string; venueEventId: string; refs?: string; keys?: unknown }>(
          line,
          pieceBlocks,
          packedTextIn,
        );
        const { venue, venueEventId, refs, keys } = head;
        if (!event || event[0] !== openBrace || event[event.length - 1] !== closeBrace) {
          throw new Error(`catalog snapshot line without its event: ${line.toString('utf8', 0, 80)}`);
        }
        const loaded = {
          bytes: snapshot.range(at + event.byteOffset - line.byteOffset, event.length),
          ...(router ? { router: snapshot.range(at + router.byteOffset - line.byteOffset, router.length) } : {}),
          ...(routerPieces ? { routerPieces } : {}),
          ...(refs ? { refs } : {}),
          ...(keys === undefined ? {} : { keys }),
          ...(leftOutAt ? { keysText: snapshot.range(at + leftOutAt[0], leftOutAt[1] - leftOutAt[0]) } : {}),
        };
        venueEvents(state, venue).set(venueEventId, read(venue, venueEventId, loaded));
      }
    }
    this.sequence = snapshotSequence;
    if (!existsSync(this.journalPath)) await writeFile(this.journalPath, '');
    this.journalFile = new FileBytes(this.journalPath);
    const committedBytes = await this.replay(state, snapshotSequence, this.journalFile, read);
    // The next append must start on a line of its own: what follows the last
    // commit (a sweep a crash cut short) goes, and a commit line the crash
    // left without its newline gets one.
    const size = await this.journalBytes();
    if (size > committedBytes) await truncate(this.journalPath, committedBytes);
    if (size < committedBytes) await appendFile(this.journalPath, '\n');
    return state;
  }

  /** Appends a committed sweep and waits until it is on disk; answers where each upsert's bytes are in the journal. */
  async append(change: SweepChange): Promise<Placed[]> {
    const sequence = (this.sequence += 1);
    const journal = this.opened(this.journalFile);
    const file = await open(this.journalPath, 'a');
    const committedBytes = (await file.stat()).size;
    try {
      const begin = Buffer.from(`${JSON.stringify({ sequence, begin: change.sweep, removals: change.removals })}\n`);
      await file.write(begin);
      const placed = await writeEvents(
        file,
        change.upserts,
        (event) => `{"sequence":${sequence},"venueEventId":${JSON.stringify(event.venueEventId)}${refsMember(event)}${routerMember(event)},"event":`,
        committedBytes + begin.length,
      );
      await file.write(`${JSON.stringify({ sequence, commit: true })}\n`);
      await file.sync();
      return placed.map((where) => placedIn(journal, where));
    } catch (error) {
      // A failed write (a full disk) must not leave a part line for the next sweep to follow.
      await file.truncate(committedBytes).catch(() => undefined);
      throw error;
    } finally {
      await file.close();
    }
  }

  async journalBytes(): Promise<number> {
    return existsSync(this.journalPath) ? (await stat(this.journalPath)).size : 0;
  }

  /**
   * Writes the whole catalog as the new snapshot and starts the journal
   * afresh; answers where each event's bytes are in the new snapshot, in the
   * order given. The files replaced stay readable for `retiredMs`.
   */
  async snapshot(sweeps: readonly SweepRecord[], events: Iterable<StoredEvent>, retiredMs = 60_000): Promise<Placed[]> {
    const placed = await replaceFile(this.snapshotPath, async (temporary) => {
      const file = await open(temporary, 'w');
      try {
        const header = Buffer.from(`${JSON.stringify({ sequence: this.sequence, sweeps })}\n`);
        await file.write(header);
        return await writeEvents(
          file,
          events,
          (event) =>
            `{"venue":${JSON.stringify(event.venue)},"venueEventId":${JSON.stringify(event.venueEventId)}${refsMember(event)}${routerMember(event)}${event.keys === undefined ? '' : `,"keys":${event.keys}`},"event":`,
          header.length,
        );
      } finally {
        await file.close();
      }
    });
    // A new journal file rather than the old one emptied: entries of a replaced sweep may still be read from it.
    await unlink(this.journalPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await writeFile(this.journalPath, '');
    const replaced = [this.snapshotFile, this.journalFile];
    const snapshot = (this.snapshotFile = new FileBytes(this.snapshotPath));
    this.journalFile = new FileBytes(this.journalPath);
    for (const old of replaced) old?.retire(retiredMs);
    return placed.map((where) => placedIn(snapshot, where));
  }

  /** Closes the files events are read from; the store is not read after. */
  close(): void {
    this.snapshotFile?.close();
    this.journalFile?.close();
  }

  private opened(file: FileBytes | undefined): FileBytes {
    if (!file) throw new Error('the catalog files are not loaded');
    return file;
  }

  /**
   * Applies the journal's committed sweeps after the snapshot; an unfinished
   * last sweep is dropped. Answers how many of the journal's bytes end with
   * its last commit line.
   */
  private async replay<T>(state: CatalogState<T>, after: number, journal: FileBytes, read: EventReader<T>): Promise<number> {
    let pending: { sequence: number; sweep: SweepRecord; removals: string[]; upserts: Array<[string, T]> } | undefined;
    let lineNumber = 0;
    let bytesRead = 0;
    let committedBytes = 0;
    let torn: { line: number; error: Error } | undefined;
    const pieceBlocks = routerPieceBlocks();
    for await (const line of byteLines(this.journalPath)) {
      lineNumber += 1;
      const lineStart = bytesRead;
      bytesRead += line.length + 1;
      if (line.length === 0) continue;
      // Only the end of the file can be cut short by a crash: a bad line with more after it is damage.
      if (torn) throw new Error(`catalog journal ${this.journalPath} is corrupt at line ${torn.line}: ${torn.error.message}`, { cause: torn.error });
      let record: { sequence: number; begin?: SweepRecord; removals?: string[]; venueEventId?: string; refs?: string; commit?: boolean };
      let event: Buffer | undefined;
      let router: Buffer | undefined;
      let routerPieces: Uint32Array | undefined;
      let parsed: unknown;
      try {
        ({ head: record, event, router, routerPieces } = eventLine<typeof record>(line, pieceBlocks));
        // The journal is where a crash can cut a line: its events are checked whole, and the parse is handed on.
        if (event) parsed = JSON.parse(event.toString('utf8'));
      } catch (error) {
        torn = { line: lineNumber, error: error as Error };
        continue;
      }
      if (record.sequence <= after) {
        committedBytes = bytesRead;
        continue;
      }
      if (record.begin) {
        pending = { sequence: record.sequence, sweep: record.begin, removals: record.removals ?? [], upserts: [] };
      } else if (record.commit && pending?.sequence === record.sequence) {
        const events = venueEvents(state, pending.sweep.venue);
        for (const venueEventId of pending.removals) events.delete(venueEventId);
        for (const [venueEventId, loaded] of pending.upserts) events.set(venueEventId, loaded);
        state.sweeps.set(pending.sweep.venue, pending.sweep);
        this.sequence = pending.sequence;
        pending = undefined;
        committedBytes = bytesRead;
      } else if (record.venueEventId !== undefined && event && pending?.sequence === record.sequence) {
        const bytes = journal.range(lineStart + event.byteOffset - line.byteOffset, event.length);
        const routerBytes = router && journal.range(lineStart + router.byteOffset - line.byteOffset, router.length);
        pending.upserts.push([
          record.venueEventId,
          read(pending.sweep.venue, record.venueEventId, {
            bytes,
            parsed,
            ...(routerBytes ? { router: routerBytes } : {}),
            ...(routerPieces ? { routerPieces } : {}),
            ...(record.refs ? { refs: record.refs } : {}),
          }),
        ]);
      }
    }
    return committedBytes;
  }
}

const closing = Buffer.from('}\n');
/** TextEncoder's encodeInto: several times faster than Buffer's utf8 write on Node 20. */
const utf8 = new TextEncoder();

/** Where `writeEvents` put an event's JSON and its Router view, as [offset, length]. */
interface Written {
  json: [number, number];
  router?: [number, number];
}

/**
 * One line per event, `head(event)` + the event's JSON (+ `,"router":` and
 * its Router view, where it has one) + `}`, written in chunks of about a
 * megabyte from `position` on. The JSON is copied into the chunk as the bytes
 * it is stored as, from memory or from the file it is in (through
 * `SequentialCopier`'s block, so events given in file order cost a read per
 * block): it is neither parsed again nor turned into a string, and no event
 * gets a buffer of its own on the way (at hundreds of thousands of events,
 * those would be most of what a snapshot costs in the garbage collector).
 * Answers where each event's JSON and view went.
 */
async function writeEvents(file: FileHandle, events: Iterable<StoredEvent>, head: (event: StoredEvent) => string, position: number): Promise<Written[]> {
  const placed: Written[] = [];
  const copier = new SequentialCopier();
  let chunk = Buffer.allocUnsafeSlow(1 << 20);
  let size = 0;
  const flush = async () => {
    for (let written = 0; written < size;) written += (await file.write(chunk, written, size - written, position + written)).bytesWritten;
    position += size;
    size = 0;
  };
  for (const event of events) {
    const start = head(event);
    const startLength = Buffer.byteLength(start);
    const routerLength = event.router === undefined ? 0 : routerKey.length + event.router.length;
    const lineLength = startLength + event.json.length + routerLength + closing.length;
    if (size + lineLength > chunk.length) await flush();
    // A line longer than a chunk gets a chunk its size.
    if (lineLength > chunk.length) chunk = Buffer.allocUnsafeSlow(lineLength);
    utf8.encodeInto(start, chunk.subarray(size, size + startLength));
    let at = size + startLength;
    copier.copy(event.json, chunk, at);
    const where: Written = { json: [position + at, event.json.length] };
    at += event.json.length;
    if (event.router !== undefined) {
      at += routerKey.copy(chunk, at);
      copier.copy(event.router, chunk, at);
      where.router = [position + at, event.router.length];
      at += event.router.length;
    }
    closing.copy(chunk, at);
    placed.push(where);
    size += lineLength;
  }
  await flush();
  return placed;
}

function placedIn(file: FileBytes, where: Written): Placed {
  return { json: file.range(...where.json), ...(where.router ? { router: file.range(...where.router) } : {}) };
}

function refsMember(event: StoredEvent): string {
  return event.refs === '' ? '' : `,"refs":${JSON.stringify(event.refs)}`;
}

/** The length of the Router view (or shell) that ends the line, so the line splits without being parsed, and the view's pieces. */
function routerMember(event: StoredEvent): string {
  if (event.router === undefined) return '';
  return `,"routerBytes":${event.router.length}${event.routerPieces === undefined ? '' : `,"routerPieces":[${event.routerPieces.join(',')}]`}`;
}

const eventMember = Buffer.from(',"event":');
const openBrace = 0x7b;
const closeBrace = 0x7d;

const routerKey = Buffer.from(',"router":');

/**
 * A line as `writeEvents` wrote it, `{…head members…,"event":` + the event's
 * JSON (+ `,"router":` + its Router view or shell, whose length the head gives as
 * `routerBytes`, and whose pieces as `routerPieces`) + `}`, split without parsing the event: its bytes are taken
 * as they stand. Inside a JSON string every quote is escaped, and no head
 * member is an object with an `event` key, so the first `,"event":` is the
 * member's own. Lines without an event (the journal's begin and commit lines)
 * are all head. The part of the head `leaveOut` names (by its offsets in the
 * line) is parsed as `leftOut`, and its offsets answered.
 */
function eventLine<Head>(
  line: Buffer,
  pieceBlocks: NumberBlocks<Uint32Array>,
  leaveOut?: (line: Buffer, headEnd: number) => [number, number] | undefined,
): { head: Head; event: Buffer | undefined; router: Buffer | undefined; routerPieces?: Uint32Array; leftOutAt?: [number, number] | undefined } {
  const start = line.indexOf(eventMember);
  if (start < 0) return { head: JSON.parse(line.toString('utf8')), event: undefined, router: undefined };
  const leftOutAt = leaveOut?.(line, start);
  const headJson = leftOutAt
    ? `${line.toString('utf8', 0, leftOutAt[0])}${leftOut}${line.toString('utf8', leftOutAt[1], start)}}`
    : `${line.toString('utf8', 0, start)}}`;
  const head = JSON.parse(headJson) as Head & { routerBytes?: number; routerPieces?: number[] };
  const end = line.length - 1;
  if (head.routerBytes === undefined) return { head, event: line.subarray(start + eventMember.length, end), router: undefined, leftOutAt };
  const routerStart = end - head.routerBytes;
  const keyStart = routerStart - routerKey.length;
  if (keyStart < start + eventMember.length || !line.subarray(keyStart, routerStart).equals(routerKey)) {
    throw new Error(`catalog line without the Router view its head announces: ${line.toString('utf8', 0, 80)}`);
  }
  const event = line.subarray(start + eventMember.length, keyStart);
  if (head.routerPieces === undefined) return { head, event, router: line.subarray(routerStart, end), leftOutAt };
  const routerPieces = pieceBlocks.copy(head.routerPieces);
  if (!piecesFit(routerPieces, event.length, head.routerBytes)) {
    throw new Error(`catalog line whose Router view pieces fall outside its bytes: ${line.toString('utf8', 0, 80)}`);
  }
  return { head, event, router: line.subarray(routerStart, end), routerPieces, leftOutAt };
}

/** Router view pieces as they are read: some 180 bytes an event, past what V8 keeps inside the heap (see number-blocks.ts). */
function routerPieceBlocks(): NumberBlocks<Uint32Array> {
  return new NumberBlocks((length) => new Uint32Array(length));
}

function venueEvents<T>(state: CatalogState<T>, venue: string): Map<string, T> {
  let events = state.events.get(venue);
  if (!events) {
    events = new Map();
    state.events.set(venue, events);
  }
  return events;
}
