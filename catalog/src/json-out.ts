import { stitchGzip } from './gzip-pieces.js';
import type { DeflatedPiece } from './gzip-pieces.js';

/** Bytes that can copy themselves into place: an event's stored bytes on disk are read straight into the answer. */
export interface PlacedBytes {
  readonly length: number;
  readInto(target: Buffer, at: number): void;
}

/**
 * Where an answer's JSON is assembled: one buffer, reused by every answer
 * (assembly is synchronous), that stored bytes are read or spliced straight
 * into, and that `finish` copies out at the answer's exact size. A page of
 * events then costs one read per event into place and one copy, not a buffer
 * per event and another to join them.
 */
export class JsonOut {
  private buffer = Buffer.allocUnsafeSlow(256 * 1024);
  /** Bytes written so far: where the next write goes. */
  length = 0;
  /** Views written since the last `finish` whose store keeps their gzip pieces, in the order written. */
  private pieced: PiecedView[] = [];

  /** The buffer with room for `bytes` more bytes past `length` (valid until the next write grows it). */
  room(bytes: number): Buffer {
    const needed = this.length + bytes;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.buffer;
  }

  text(text: string): void {
    this.length += this.room(Buffer.byteLength(text)).write(text, this.length);
  }

  bytes(bytes: Uint8Array | PlacedBytes): void {
    const target = this.room(bytes.length);
    if (bytes instanceof Uint8Array) target.set(bytes, this.length);
    else bytes.readInto(target, this.length);
    this.length += bytes.length;
  }

  /**
   * Marks the bytes written from `start` to now as one view whose gzip piece
   * `piece` gives (kept by its store, or made then and kept): the answer can
   * then be gzipped from its pieces (see `finishPieced`).
   */
  view(start: number, piece: () => DeflatedPiece): void {
    this.pieced.push({ start, end: this.length, piece });
  }

  /** Starts a new answer, dropping whatever an answer that failed halfway left. */
  clear(): void {
    this.length = 0;
    this.pieced = [];
  }

  /** The answer written since the last `finish`, in a buffer of its own; the shared buffer is then free again. */
  finish(): Buffer {
    const answer = Buffer.allocUnsafe(this.length);
    this.buffer.copy(answer, 0, 0, this.length);
    this.clear();
    return answer;
  }

  /** `finish`, and the answer's gzip made from the pieces of the views marked in it (see `PiecedJson`). */
  finishPieced(): PiecedJson {
    const views = this.pieced;
    const json = this.finish();
    return { json, gzip: () => gzipFromViews(json, views) };
  }
}

/** Where a view with a gzip piece sits in an answer. */
interface PiecedView {
  readonly start: number;
  readonly end: number;
  readonly piece: () => DeflatedPiece;
}

/**
 * An answer, and its gzip stitched from its views' pieces with the bytes
 * between them as stored blocks: a copy of bytes compressed once, in the
 * background, instead of a compression per answer. `gzip` is undefined where
 * no view has a piece (the store keeps none: the answer is compressed whole),
 * or where a piece is not as long as its view: a piece is of the very bytes
 * its view was written from, so such a piece is never sent.
 */
export interface PiecedJson {
  readonly json: Buffer;
  gzip(): Buffer | undefined;
}

function gzipFromViews(json: Buffer, views: readonly PiecedView[]): Buffer | undefined {
  if (views.length === 0) return undefined;
  const parts: Array<Buffer | DeflatedPiece> = [];
  let at = 0;
  for (const view of views) {
    const piece = view.piece();
    if (piece.length !== view.end - view.start) return undefined;
    if (view.start > at) parts.push(json.subarray(at, view.start));
    parts.push(piece);
    at = view.end;
  }
  if (at < json.length) parts.push(json.subarray(at));
  return stitchGzip(parts, json);
}

const shared = new JsonOut();

/** Writes a JSON value into an answer. */
export type JsonWriter = (out: JsonOut) => void;

/** `before` + the value `write` writes + `after`, as one buffer. */
export function wrapJson(write: JsonWriter, before: string, after: string): Buffer {
  wrapInto(write, before, after);
  return shared.finish();
}

/** The same bytes as `wrapJson`, with their gzip made from the pieces of the views in them (see `PiecedJson`). */
export function wrapPiecedJson(write: JsonWriter, before: string, after: string): PiecedJson {
  wrapInto(write, before, after);
  return shared.finishPieced();
}

function wrapInto(write: JsonWriter, before: string, after: string): void {
  shared.clear();
  shared.text(before);
  write(shared);
  shared.text(after);
}
