import { open } from 'node:fs/promises';

/**
 * The file's lines as bytes, read in large chunks into one reused buffer: no
 * line is decoded into a string unless its reader asks. A line is a view into
 * that buffer, valid until the next line is read (the reader copies what it keeps).
 */
export async function* byteLines(path: string, chunkBytes = 16 * 2 ** 20): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafeSlow(chunkBytes);
    let filled = 0;
    for (;;) {
      // A line longer than the buffer: grow it, keeping what was read.
      if (filled === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      let start = 0;
      for (let end = buffer.indexOf(newline, start); end !== -1 && end < filled; end = buffer.indexOf(newline, start)) {
        yield buffer.subarray(start, end);
        start = end + 1;
      }
      buffer.copyWithin(0, start, filled);
      filled -= start;
    }
    if (filled > 0) yield buffer.subarray(0, filled);
  } finally {
    await file.close();
  }
}

const newline = 0x0a;
