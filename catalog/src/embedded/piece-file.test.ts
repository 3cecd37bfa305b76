import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { inMemoryPiece, stitchGzip } from '../gzip-pieces.js';
import type { DeflatedPiece } from '../gzip-pieces.js';
import { PieceFile } from './piece-file.js';

const noise = randomBytes(1_300_000);
/** A view's bytes: incompressible, so a piece is about as long as its view. */
const view = (length: number, from = 0) => Buffer.from(noise.subarray(from, from + length));

/** Whether `piece`, stitched between two bits of JSON, decodes to exactly `bytes` between them. */
function decodesTo(piece: DeflatedPiece, bytes: Buffer): boolean {
  const identity = Buffer.concat([Buffer.from('['), bytes, Buffer.from(']')]);
  const gzip = stitchGzip(['[', piece, ']'], identity);
  return gzip !== undefined && gunzipSync(gzip).equals(identity);
}

test('pieces kept in the file read back as their views, whether still buffered, written, larger than a read, or larger than the buffer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'predgate-piece-file-'));
  const pieces = new PieceFile(dir);
  // Past the 1 MiB write buffer several times over: small pieces (many to a read), pieces larger than a read, one larger than the buffer.
  const views = [
    ...Array.from({ length: 400 }, (_, index) => view(1_000 + index * 7, index * 2_000)),
    ...Array.from({ length: 6 }, (_, index) => view(40_000 + index * 1_000, index * 50_000)),
    view(1_100_000),
    view(10),
  ];
  const kept = views.map((bytes) => pieces.keep(bytes));
  // In the order they were kept (read ahead), and the small ones backwards (each read missing the one before).
  kept.forEach((piece, index) => expect(decodesTo(piece, views[index]!)).toBe(true));
  for (let index = 399; index >= 0; index -= 1) expect(decodesTo(kept[index]!, views[index]!)).toBe(true);
  expect(pieces.fileBytes).toBe(kept.reduce((sum, piece) => sum + piece.deflatedLength, 0));
  // The file has no name: nothing is left behind in the folder, whatever happens to the process.
  expect(readdirSync(dir)).toEqual([]);
  pieces.close();
  // Closed, it still keeps pieces (in memory), so an answer asked for then is not refused.
  const late = pieces.keep(views[0]!);
  expect(decodesTo(late, views[0]!)).toBe(true);
});

test('pieces read in no order (each read alone), then in order again (read ahead), read back as their views', () => {
  const pieces = new PieceFile();
  // Past the write buffer, so they are read from the file: small pieces, several to a read ahead.
  const views = Array.from({ length: 1_200 }, (_, index) => view(900 + (index % 17), index * 1_000));
  const kept = views.map((bytes) => pieces.keep(bytes));
  // A page of markets from many events: far apart, so each read serves one piece and the next is read alone.
  for (let step = 0; step < 400; step += 1) {
    const index = (step * 397) % 1_000;
    expect(decodesTo(kept[index]!, views[index]!)).toBe(true);
  }
  // Then a Router page: neighbours, forwards and backwards, some of them right after a piece read alone.
  for (let index = 500; index < 560; index += 1) expect(decodesTo(kept[index]!, views[index]!)).toBe(true);
  for (let index = 300; index >= 240; index -= 1) expect(decodesTo(kept[index]!, views[index]!)).toBe(true);
  pieces.close();
});

test('a piece is read right after the one before it was written, across the buffer being written out', () => {
  const pieces = new PieceFile();
  const views = Array.from({ length: 600 }, (_, index) => view(2_000 + (index % 13), index * 2_000));
  const kept: DeflatedPiece[] = [];
  views.forEach((bytes, index) => {
    kept.push(pieces.keep(bytes));
    // Reads follow the writes closely: what was read ahead before a write-out must not stand for what was written after.
    expect(decodesTo(kept[index]!, bytes)).toBe(true);
    if (index > 0) expect(decodesTo(kept[index - 1]!, views[index - 1]!)).toBe(true);
  });
  expect(pieces.fileBytes).toBeGreaterThan(1 << 20);
  pieces.close();
});

test('compaction copies the live pieces to a fresh file and drops the rest; a piece kept meanwhile goes to the fresh file', async () => {
  const pieces = new PieceFile(undefined, 0);
  const views = Array.from({ length: 30 }, (_, index) => view(20_000, index * 30_000));
  const kept = views.map((bytes) => pieces.keep(bytes));
  const live = kept.filter((_, index) => index % 3 === 0);
  const liveBytes = live.reduce((sum, piece) => sum + piece.deflatedLength, 0);

  const compacting = pieces.compact(live);
  const during = view(5_000, 1_000_000);
  const keptDuring = pieces.keep(during);
  await compacting;

  expect(pieces.fileBytes).toBe(liveBytes + keptDuring.deflatedLength);
  kept.forEach((piece, index) => {
    expect(pieces.readable(piece)).toBe(index % 3 === 0);
    if (index % 3 === 0) expect(decodesTo(piece, views[index]!)).toBe(true);
  });
  expect(decodesTo(keptDuring, during)).toBe(true);

  // Nothing wasted now: compacting again leaves the file as it is.
  await pieces.compact([...live, keptDuring]);
  expect(pieces.fileBytes).toBe(liveBytes + keptDuring.deflatedLength);
  expect(live.every((piece) => pieces.readable(piece))).toBe(true);
  pieces.close();
});

test('a large compaction lets the event loop turn while it finds and while it moves the live pieces, which read right throughout', async () => {
  const pieces = new PieceFile(undefined, 0);
  const views = Array.from({ length: 180 }, (_, index) => view(20_000, index * 7_000));
  const kept = views.map((bytes) => pieces.keep(bytes));
  const before = pieces.fileBytes;
  const liveIndexes = views.map((_, index) => index).filter((index) => index % 3 === 0);
  const liveBytes = liveIndexes.reduce((sum, index) => sum + kept[index]!.deflatedLength, 0);
  // A large catalog's walk: the file's live pieces among many more kept in memory, which compaction passes over.
  function* live(): Generator<DeflatedPiece> {
    for (const index of liveIndexes) {
      yield kept[index]!;
      for (let other = 0; other < 500; other += 1) yield inMemoryPiece(Buffer.alloc(0), 0);
    }
  }

  let settled = false;
  const compacting = pieces.compact(live()).then(() => (settled = true));
  const fileBytesSeen: number[] = [];
  let during: { piece: DeflatedPiece; bytes: Buffer } | undefined;
  while (!settled) {
    await nextTurn();
    fileBytesSeen.push(pieces.fileBytes);
    // Requests meanwhile: every live piece reads right, wherever it is now, and a new piece is kept.
    for (const index of liveIndexes) expect(decodesTo(kept[index]!, views[index]!)).toBe(true);
    if (!during) {
      const bytes = view(3_000, 900_000);
      during = { piece: pieces.keep(bytes), bytes };
    }
  }
  await compacting;

  // Turns while the live pieces were still being found (the old file, as it was), and while they were being moved.
  expect(fileBytesSeen).toContain(before);
  expect(fileBytesSeen.some((bytes) => bytes > 0 && bytes < liveBytes)).toBe(true);
  expect(pieces.fileBytes).toBe(liveBytes + during!.piece.deflatedLength);
  expect(decodesTo(during!.piece, during!.bytes)).toBe(true);
  kept.forEach((piece, index) => expect(pieces.readable(piece)).toBe(index % 3 === 0));
  pieces.close();
});

test('waste within the slack is left in the file', async () => {
  const pieces = new PieceFile(undefined, 1 << 20);
  const kept = Array.from({ length: 10 }, () => pieces.keep(view(10_000)));
  const before = pieces.fileBytes;
  await pieces.compact(kept.slice(0, 1));
  expect(pieces.fileBytes).toBe(before);
  expect(kept.every((piece) => pieces.readable(piece))).toBe(true);
  pieces.close();
});
