import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { readEventBytes } from './file-bytes.js';
import { FileStaging } from './sweep-staging.js';

const folder = mkdtempSync(join(tmpdir(), 'predgate-staging-'));
let files = 0;

test('every value kept and not taken back reads back as written from the file once flushed, across flushes and buffer growth', async () => {
  await fc.assert(
    fc.asyncProperty(
      // Pages of values; each value either kept or taken back (an event found unchanged), some larger than the first buffer.
      fc.array(
        fc.array(fc.record({ text: fc.string({ unit: 'grapheme', maxLength: 200 }), big: fc.nat(1_500_000), dropped: fc.boolean() }), { maxLength: 12 }),
        {
          maxLength: 4,
        },
      ),
      async (pages) => {
        const staging = await FileStaging.create(join(folder, `${(files += 1)}.staging`));
        const kept: Array<[Parameters<typeof readEventBytes>[0], Buffer]> = [];
        for (const page of pages) {
          for (const { text, big, dropped } of page) {
            const value = Buffer.from(big > 1_400_000 ? text.repeat(1 + (big % 5_000)) + 'x'.repeat(big % 300_000) : text);
            const mark = staging.mark();
            const copy = staging.bytes(value);
            expect(copy.equals(value)).toBe(true);
            if (dropped) staging.rollback(mark);
            else kept.push([staging.lasting(copy), value]);
          }
          await staging.flush();
        }
        for (const [where, value] of kept) expect(readEventBytes(where).equals(value)).toBe(true);
        await staging.discard();
      },
    ),
    { numRuns: 40 },
  );
});

test('discarding deletes the file, and only bytes kept since the last flush have a place', async () => {
  const path = join(folder, 'discarded.staging');
  const staging = await FileStaging.create(path);
  const first = staging.bytes(Buffer.from('first'));
  await staging.flush();
  expect(() => staging.lasting(first)).toThrow('since its last flush');
  expect(existsSync(path)).toBe(true);
  await staging.discard();
  await staging.discard();
  expect(existsSync(path)).toBe(false);
});
