import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ByteSlabs } from './byte-slabs.js';

test('every value reads back as written, after later values filled the same slab and the next', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 60 }), (texts) => {
      const slabs = new ByteSlabs(1024);
      const stored = texts.map((text) => slabs.bytes(Buffer.from(text)));
      expect(stored.map((bytes) => bytes.toString('utf8'))).toEqual(texts);
    }),
  );
});

test('values share slabs, and a value larger than a quarter slab gets its own buffer', () => {
  const slabs = new ByteSlabs(1024);
  const [a, b] = [slabs.bytes(Buffer.from('first')), slabs.bytes(Buffer.from('second'))];
  expect(a.buffer).toBe(b.buffer);
  const large = slabs.bytes(Buffer.from('x'.repeat(300)));
  expect(large.buffer).not.toBe(a.buffer);
  expect(large.length).toBe(300);
});

test('room given back after a mark goes to the next value, in the same slab or a new one', () => {
  const slabs = new ByteSlabs(1024);
  const kept = slabs.bytes(Buffer.from('kept'));
  const mark = slabs.mark();
  const dropped = slabs.bytes(Buffer.from('dropped'));
  slabs.rollback(mark);
  const next = slabs.bytes(Buffer.from('next'));
  expect([next.buffer, next.byteOffset]).toEqual([dropped.buffer, dropped.byteOffset]);
  expect(kept.toString()).toBe('kept');
  const full = slabs.mark();
  const spilled = Array.from({ length: 5 }, () => slabs.bytes(Buffer.alloc(250)));
  expect(spilled[4]!.buffer).not.toBe(kept.buffer);
  slabs.rollback(full);
  const again = slabs.bytes(Buffer.from('again'));
  expect([again.buffer, again.byteOffset]).toEqual([spilled[4]!.buffer, spilled[4]!.byteOffset]);
});
