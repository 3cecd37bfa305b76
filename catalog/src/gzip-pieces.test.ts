import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { deflatePiece, stitchGzip } from './gzip-pieces.js';

test('text and pieces stitched into a gzip decompress to exactly the page they make, whatever their sizes and order', () => {
  const text = fc.string({ unit: 'binary', maxLength: 200 });
  // Views of any size, text up to past a stored block's 65,535 bytes.
  const view = fc.integer({ min: 0, max: 40_000 }).map((length) =>
    Buffer.from(
      randomBytes(Math.ceil(length / 2))
        .toString('hex')
        .slice(0, length),
    ),
  );
  const part = fc.oneof(
    text,
    fc.integer({ min: 65_000, max: 70_000 }).map((length) => 'x'.repeat(length)),
    view,
  );
  fc.assert(
    fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
      const identity = Buffer.concat(parts.map((item) => (typeof item === 'string' ? Buffer.from(item, 'utf8') : item)));
      const stitched = stitchGzip(
        parts.map((item) => (typeof item === 'string' ? item : deflatePiece(item))),
        identity,
      );
      expect(stitched).toBeDefined();
      expect(gunzipSync(stitched!).equals(identity)).toBe(true);
    }),
    { numRuns: 40 },
  );
});

test('parts that do not add up to the page are not stitched', () => {
  const piece = deflatePiece(Buffer.from('{"id":1}'));
  expect(stitchGzip(['[', piece, ']'], Buffer.from('[{"id":1}]'))?.length).toBeGreaterThan(0);
  expect(stitchGzip(['[', piece, ']'], Buffer.from('[{"id":12}]'))).toBeUndefined();
});
