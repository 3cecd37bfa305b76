import { open } from 'node:fs/promises';

/**
 * The file's lines as bytes, read in large chunks: no line is decoded into a
 * string unless its reader asks. Two buffers take turns, so the next chunk
 * is read while the reader works through this one's lines and a start from
 * disk does not wait for the disk between chunks. A line is a view into a
 * reused buffer, valid until the next line is read (the reader copies what it
 * keeps); only a line cut by the end of a chunk is copied, to join its rest.
 */
export async function* byteLines(path: string, chunkBytes = 16 * 2 ** 20): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)];
  let turn = 0;
  const readInto = (buffer: Buffer) => file.read(buffer, 0, chunkBytes, null).then(({ bytesRead }) => buffer.subarray(0, bytesRead));
  let next = readInto(buffers[turn]!);
  try {
    let cut: Buffer | undefined;
    for (;;) {
      const chunk = await next;
      if (chunk.length === 0) break;
      turn ^= 1;
      next = readInto(buffers[turn]!);
      let start = 0;
      let end = chunk.indexOf(newline);
      if (cut) {
        if (end === -1) {
          cut = Buffer.concat([cut, chunk]);
          continue;
        }
        yield Buffer.concat([cut, chunk.subarray(0, end)]);
        cut = undefined;
        start = end + 1;
        end = chunk.indexOf(newline, start);
      }
      for (; end !== -1; end = chunk.indexOf(newline, start)) {
        yield chunk.subarray(start, end);
        start = end + 1;
      }
      if (start < chunk.length) cut = Buffer.from(chunk.subarray(start));
    }
    if (cut) yield cut;
  } finally {
    // A read still under way must settle before its file closes.
    await next.catch(() => undefined);
    await file.close();
  }
}

const newline = 0x0a;
