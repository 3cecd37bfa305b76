import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A view compressed once, on its own, as raw deflate blocks ended by a sync
 * flush (so it stops on a byte boundary and refers to nothing before it):
 * any number of such pieces, put one after another between stored blocks of
 * the JSON around them, make one valid deflate stream. A page is then sent
 * gzipped for the cost of copying its pieces, not of compressing it again.
 */
export interface DeflatedPiece {
  readonly deflated: Buffer;
  /** Bytes of the view it decompresses to. */
  readonly length: number;
}

/**
 * The zlib level pieces are made at: each is made once per event, in the
 * background for a whole catalog after a sweep or a start, where level 1
 * costs a fraction of level 6's time for pieces only a few percent larger.
 */
const pieceLevel = 1;

export function deflatePiece(bytes: Buffer): DeflatedPiece {
  const deflated = deflateRawSync(bytes, { level: pieceLevel, finishFlush: constants.Z_SYNC_FLUSH });
  // Copied out at its size: zlib's answer may be a slice of its whole output chunk, which a kept piece would hold on to.
  return { deflated: Buffer.from(deflated), length: bytes.length };
}

/** gzip's header with no name, time or flags (RFC 1952): deflate, OS unknown. */
const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** The most a stored block holds (RFC 1951, 3.2.4). */
const storedBlockBytes = 0xffff;

/** `bytes` as stored (uncompressed) deflate blocks, the stream being on a byte boundary; the last one final when `last`. */
function storedBlocks(bytes: Buffer, last: boolean): Buffer[] {
  const blocks: Buffer[] = [];
  let start = 0;
  do {
    const end = Math.min(bytes.length, start + storedBlockBytes);
    const header = Buffer.allocUnsafe(5);
    header[0] = last && end === bytes.length ? 1 : 0;
    header.writeUInt16LE(end - start, 1);
    header.writeUInt16LE(~(end - start) & 0xffff, 3);
    blocks.push(header, bytes.subarray(start, end));
    start = end;
  } while (start < bytes.length);
  return blocks;
}

/**
 * The gzip of `identity`, stitched from `parts` in order: text between the
 * views (as a string or its bytes) as stored blocks, views as their pieces,
 * the last part ending the stream. Undefined when the parts do not add up to
 * `identity`'s length: the page was then written some other way, and is
 * compressed as a whole.
 */
export function stitchGzip(parts: ReadonlyArray<string | Buffer | DeflatedPiece>, identity: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [gzipHeader];
  let length = 0;
  parts.forEach((part, index) => {
    const last = index === parts.length - 1;
    if (typeof part === 'string' || Buffer.isBuffer(part)) {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      length += bytes.length;
      chunks.push(...storedBlocks(bytes, last));
    } else {
      length += part.length;
      chunks.push(part.deflated);
      if (last) chunks.push(...storedBlocks(Buffer.alloc(0), true));
    }
  });
  if (parts.length === 0) chunks.push(...storedBlocks(Buffer.alloc(0), true));
  if (length !== identity.length) return undefined;
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc32(identity), 0);
  trailer.writeUInt32LE(identity.length % 2 ** 32, 4);
  chunks.push(trailer);
  return Buffer.concat(chunks);
}
