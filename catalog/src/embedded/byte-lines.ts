import { open } from 'node:fs/promises';

/**
 * The file's lines as bytes, read in large chunks: no line is decoded into a
 * string unless its reader asks. The next chunk is read while the reader
 * works through this one's lines, so a start from disk does not wait for
 * the disk between chunks. A line is a view into a reused buffer, valid until
 * the next line is read (the reader copies what it keeps).
 */
export async function* byteLines(path: string, chunkBytes = 16 * 2 ** 20): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  const readAhead = Buffer.allocUnsafeSlow(chunkBytes);
  const readNext = () => file.read(readAhead, 0, chunkBytes, null).then(({ bytesRead }) => bytesRead);
  let next = readNext();
  try {
    let buffer = Buffer.allocUnsafeSlow(chunkBytes * 2);
    let filled = 0;
    for (;;) {
      const bytesRead = await next;
      if (bytesRead === 0) break;
      // What is left of the last chunk (a line cut by it) comes first.
      if (filled + bytesRead > buffer.length) buffer = Buffer.concat([buffer.subarray(0, filled)], (filled + bytesRead) * 2);
      readAhead.copy(buffer, filled, 0, bytesRead);
      filled += bytesRead;
      next = readNext();
      const read = buffer.subarray(0, filled);
      let start = 0;
      for (let end = read.indexOf(newline); end !== -1; end = read.indexOf(newline, start)) {
        yield read.subarray(start, end);
        start = end + 1;
      }
      buffer.copyWithin(0, start, filled);
      filled -= start;
    }
    if (filled > 0) yield buffer.subarray(0, filled);
  } finally {
    // A read still under way must settle before its file closes.
    await next.catch(() => 0);
    await file.close();
  }
}

const newline = 0x0a;
