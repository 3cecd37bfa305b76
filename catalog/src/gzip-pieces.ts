import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A view compressed once, on its own, as raw deflate blocks ended by a sync
 * flush (so it stops on a byte boundary and refers to nothing before it):
 * any number of such pieces, put one after another between stored blocks of
 * the JSON around them, make one valid deflate stream. A page is then sent
 * gzipped for the cost of copying its pieces, not of compressing it again.
 * Where the deflated bytes are is the keeper's business (the embedded store
 * keeps them in a file, see embedded/piece-file.ts): a stitched answer has
 * them copied straight into place.
 */
export interface DeflatedPiece {
  /** Bytes of the view it decompresses to. */
  readonly length: number;
  /** Bytes of the piece itself. */
  readonly deflatedLength: number;
  readDeflatedInto(target: Buffer, at: number): void;
}

/**
 * The zlib level pieces are made at: each is made once per event, in the
 * background for a whole catalog after a sweep or a start, where level 1
 * costs a fraction of level 6's time for pieces only a few percent larger.
 */
const pieceLevel = 1;

/** `bytes` as a piece's deflate blocks; the answer may be a slice of zlib's output chunk, so a kept piece is a copy of it. */
export function deflateView(bytes: Buffer): Buffer {
  return deflateRawSync(bytes, { level: pieceLevel, finishFlush: constants.Z_SYNC_FLUSH });
}

/** A piece held in memory: what a keeper that cannot keep it elsewhere answers (and what tests stitch from). */
export function deflatePiece(bytes: Buffer): DeflatedPiece {
  return inMemoryPiece(Buffer.from(deflateView(bytes)), bytes.length);
}

export function inMemoryPiece(deflated: Buffer, length: number): DeflatedPiece {
  return { length, deflatedLength: deflated.length, readDeflatedInto: (target, at) => void deflated.copy(target, at) };
}

/** gzip's header with no name, time or flags (RFC 1952): deflate, OS unknown. */
const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** The most a stored block holds (RFC 1951, 3.2.4). */
const storedBlockBytes = 0xffff;
const storedHeaderBytes = 5;
const trailerBytes = 8;

/** Bytes `storedBlocks` writes for `length` bytes: an empty final block is still a block. */
function storedBlocksLength(length: number): number {
  return length + storedHeaderBytes * Math.max(1, Math.ceil(length / storedBlockBytes));
}

/** Writes `bytes` as stored (uncompressed) deflate blocks at `at`, the stream being on a byte boundary; the last one final when `last`. Answers where it stopped. */
function storedBlocks(bytes: Buffer, last: boolean, target: Buffer, at: number): number {
  let start = 0;
  do {
    const end = Math.min(bytes.length, start + storedBlockBytes);
    target[at] = last && end === bytes.length ? 1 : 0;
    target.writeUInt16LE(end - start, at + 1);
    target.writeUInt16LE(~(end - start) & 0xffff, at + 3);
    at += storedHeaderBytes;
    at += bytes.copy(target, at, start, end);
    start = end;
  } while (start < bytes.length);
  return at;
}

const noBytes = Buffer.alloc(0);

/**
 * The gzip of `identity`, stitched from `parts` in order into one buffer:
 * text between the views (as a string or its bytes) as stored blocks, views
 * as their pieces, the last part ending the stream. Undefined when the parts
 * do not add up to `identity`'s length: the page was then written some other
 * way, and is compressed as a whole.
 */
export function stitchGzip(parts: ReadonlyArray<string | Buffer | DeflatedPiece>, identity: Buffer): Buffer | undefined {
  const bytes = parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part));
  let length = 0;
  let size = gzipHeader.length + trailerBytes;
  for (const part of bytes) {
    length += part.length;
    size += Buffer.isBuffer(part) ? storedBlocksLength(part.length) : part.deflatedLength;
  }
  // A stream that ends on a piece (or holds nothing) is closed by an empty final stored block.
  const closing = bytes.length === 0 || !Buffer.isBuffer(bytes[bytes.length - 1]);
  if (closing) size += storedBlocksLength(0);
  if (length !== identity.length) return undefined;
  const gzip = Buffer.allocUnsafe(size);
  let at = gzipHeader.copy(gzip, 0);
  bytes.forEach((part, index) => {
    if (Buffer.isBuffer(part)) at = storedBlocks(part, index === bytes.length - 1, gzip, at);
    else {
      part.readDeflatedInto(gzip, at);
      at += part.deflatedLength;
    }
  });
  if (closing) at = storedBlocks(noBytes, true, gzip, at);
  gzip.writeUInt32LE(crc32(identity), at);
  gzip.writeUInt32LE(identity.length % 2 ** 32, at + 4);
  return gzip;
}
