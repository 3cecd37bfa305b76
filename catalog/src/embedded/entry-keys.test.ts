import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { MarketKeys } from '../document.js';
import { decodeKeys, encodeKeys, leftOut, packMarkets, packedTextIn } from './entry-keys.js';
import { FileBytes } from './file-bytes.js';
import type { EventKeys } from './entry-keys.js';
import { Interner } from './interner.js';
import { NumberBlocks } from './number-blocks.js';
import { EntryViews, StoredEntry } from './stored-entry.js';

const event: Omit<EventKeys, 'venue' | 'venueEventId'> = {
  id: 'e-uuid',
  slug: 'event-slug',
  search: 'title\nevent-slug',
  category: 'Crypto',
  venueCategory: 'crypto',
  tags: ['crypto'],
  closed: false,
  closesAt: 1_800_000_000_000,
  volume24h: 12.5,
};

// Texts with what could trip a packed layout: the packing separator itself, other controls, quotes, and characters
// of two UTF-16 units (lengths are counted in units, as strings slice).
const text = fc.string({ unit: fc.constantFrom('a', 'Z', '-', '\u0000', '\u0001', '"', '\\', 'é', '😀', '\u2028'), maxLength: 6 });
const market: fc.Arbitrary<MarketKeys> = fc.record({
  marketId: text,
  slug: fc.option(text),
  title: text,
  trading: fc.boolean(),
  category: fc.option(fc.constantFrom('crypto', 'sports')),
  normalizedCategory: fc.constantFrom('Crypto', 'Sports', 'Other'),
  tags: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }),
  outcomeIds: fc.array(text, { maxLength: 3 }),
  // JSON has no -0: a snapshot reads it back as 0 in every version.
  volume24h: fc.double({ noNaN: true, noDefaultInfinity: true }).map((volume) => volume + 0),
});

/** A row's keys as plain values, to compare across ways of building it. */
function keysOf(row: MarketKeys): MarketKeys {
  const { marketId, slug, title, trading, category, normalizedCategory, tags, outcomeIds, volume24h } = row;
  return { marketId, slug, title, trading, category, normalizedCategory, tags, outcomeIds, volume24h };
}

function entryOf(keys: ConstructorParameters<typeof StoredEntry>[0]): StoredEntry {
  return new StoredEntry(keys, { bytes: Buffer.from('{}'), refs: '' }, new EntryViews(), new Interner());
}

test('market keys packed, written to a snapshot line and read back give every market row its keys as they were', () => {
  fc.assert(
    fc.property(fc.array(market, { maxLength: 5 }), (markets) => {
      const swept = entryOf({ ...event, venue: 'v', venueEventId: 'e', marketKeys: markets });
      const line = JSON.parse(`{"keys":${encodeKeys(swept)}}`) as { keys: unknown };
      // Blocks smaller than some layouts, so layouts also cross into new blocks.
      const restored = entryOf(decodeKeys('v', 'e', line.keys, new NumberBlocks((length) => new Int32Array(length), 16)));
      for (const entry of [swept, restored]) {
        expect(entry.rows.map(keysOf)).toEqual(markets);
        expect(entry.rows.map((row) => row.packedOutcomeIds)).toEqual(
          markets.map(({ outcomeIds }) =>
            outcomeIds.length === 0 ? [] : outcomeIds.some((id) => id.includes('\u0000')) ? outcomeIds : outcomeIds.join('\u0000'),
          ),
        );
      }
    }),
    { numRuns: 300 },
  );
});

test("a snapshot of the version before, each market's keys in an array of its own, still reads back", () => {
  const markets: MarketKeys[] = [
    {
      marketId: 'm0',
      slug: null,
      title: 'first',
      trading: true,
      category: 'crypto',
      normalizedCategory: 'Crypto',
      tags: ['a'],
      outcomeIds: ['y', 'n'],
      volume24h: 3,
    },
    { marketId: 'm1', slug: 's1', title: 'second', trading: false, category: null, normalizedCategory: 'Other', tags: [], outcomeIds: [], volume24h: 0.5 },
  ];
  const tuple = [
    ...Object.values(event),
    markets.map((m) => [m.marketId, m.slug, m.title, m.trading, m.category, m.normalizedCategory, m.tags, m.outcomeIds, m.volume24h]),
  ];
  const restored = entryOf(decodeKeys('v', 'e', JSON.parse(JSON.stringify(tuple)), new NumberBlocks((length) => new Int32Array(length))));
  expect(restored.rows.map(keysOf)).toEqual(markets);
  expect(restored.id).toBe(event.id);
});

const folder = mkdtempSync(join(tmpdir(), 'entry-keys-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let lines = 0;

/** A snapshot line of `keys` as persistence writes it, in a file of its own, parsed as a start does: its packed text left where it is. */
function readLeavingTextOut(keys: string, head = '{"venue":"v","venueEventId":"e"'): { keys: unknown; text: ReturnType<FileBytes['range']> | undefined } {
  const line = Buffer.from(`${head},"keys":${keys},"event":{}}`);
  const path = join(folder, `line-${(lines += 1)}`);
  writeFileSync(path, line);
  const headEnd = line.indexOf(',"event":');
  const at = packedTextIn(line, headEnd);
  if (!at) return { keys: (JSON.parse(`${line.toString('utf8', 0, headEnd)}}`) as { keys: unknown }).keys, text: undefined };
  const parsed = JSON.parse(`${line.toString('utf8', 0, at[0])}${leftOut}${line.toString('utf8', at[1], headEnd)}}`) as { keys: unknown };
  return { keys: parsed.keys, text: new FileBytes(path).range(at[0], at[1] - at[0]) };
}

test('packed keys read from a snapshot line with their text left in the file give every market row its keys, however the strings before it are escaped', () => {
  const escaped = fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', '[', ']', '\u0000', 'é'), maxLength: 6 });
  fc.assert(
    fc.property(fc.array(market, { maxLength: 4 }), escaped, escaped, fc.array(escaped, { maxLength: 2 }), (markets, slug, search, tags) => {
      const swept = entryOf({ ...event, slug, search, tags, venue: 'v', venueEventId: 'e', marketKeys: markets });
      const { keys, text } = readLeavingTextOut(encodeKeys(swept), `{"venue":"v","venueEventId":${JSON.stringify(search)},"refs":${JSON.stringify(slug)}`);
      expect(text).toBeDefined();
      const restored = entryOf(decodeKeys('v', 'e', keys, new NumberBlocks((length) => new Int32Array(length)), text));
      expect(restored.rows.map(keysOf)).toEqual(markets);
      expect([restored.slug, restored.search, restored.tags]).toEqual([slug, search, tags]);
      // Written again, the text is read from the file for it.
      expect(encodeKeys(restored)).toBe(encodeKeys(swept));
    }),
  );
});

test('keys of the version before, whose markets are not a packed text, are parsed whole', () => {
  const tuple = [...Object.values(event), [['m0', null, 't', true, null, 'Other', [], ['y'], 1]]];
  expect(readLeavingTextOut(JSON.stringify(tuple)).text).toBeUndefined();
});

test('a packed text left in the file that does not add up to its layout is an error naming the event when its rows are made', () => {
  const packed = packMarkets(
    [{ marketId: 'm0', slug: 's', title: 't', trading: true, category: null, normalizedCategory: 'Other', tags: [], outcomeIds: ['y'], volume24h: 1 }],
    new Interner(),
  );
  const encoded = JSON.parse(encodeKeys({ ...event, venue: 'v', venueEventId: 'e', packedMarkets: packed })) as unknown[];
  for (const [text, fits] of [
    ['m0sty', true],
    ['m0st', false],
    ['m0styy', false],
  ] as const) {
    const { keys, text: stored } = readLeavingTextOut(JSON.stringify(encoded.with(9, text)));
    expect(stored).toBeDefined();
    const entry = entryOf(decodeKeys('v', 'e', keys, new NumberBlocks((length) => new Int32Array(length)), stored));
    if (fits) expect(entry.rows.map((row) => row.outcomeIds)).toEqual([['y']]);
    else expect(() => entry.rows).toThrow(/keys of event e-uuid do not fit/);
  }
});

test('packed keys whose lengths do not add up to their text are an error naming the event', () => {
  const packed = packMarkets(
    [{ marketId: 'm0', slug: 's', title: 't', trading: true, category: null, normalizedCategory: 'Other', tags: [], outcomeIds: ['y'], volume24h: 1 }],
    new Interner(),
  );
  const encoded = JSON.parse(encodeKeys({ ...event, venue: 'v', venueEventId: 'e', packedMarkets: packed })) as unknown[];
  const blocks = new NumberBlocks((length) => new Int32Array(length));
  expect(() => decodeKeys('v', 'e', encoded, blocks)).not.toThrow();
  for (const broken of [
    { at: 9, value: 'm0st' },
    { at: 10, value: [2, 1, 1, 1, 0, 0, 0, 1] },
    { at: 10, value: [2, 1, 1, 1, 0, 0, 0, 1, 0] },
    { at: 10, value: [2, 1, 1, 1, 5, 0, 0, 1, 1] },
  ]) {
    const tuple = [...encoded];
    tuple[broken.at] = broken.value;
    expect(() => decodeKeys('v', 'e', tuple, blocks)).toThrow(/keys of event e-uuid do not fit/);
  }
});

test('events naming the same categories and tag lists share one table of them, read back and swept alike', () => {
  const markets: MarketKeys[] = [
    { marketId: 'm0', slug: null, title: 't', trading: true, category: 'crypto', normalizedCategory: 'Crypto', tags: ['a', 'b'], outcomeIds: [], volume24h: 1 },
  ];
  const shared = new Interner();
  const blocks = new NumberBlocks((length) => new Int32Array(length));
  const entries = ['e1', 'e2'].flatMap((venueEventId) => {
    const swept = new StoredEntry(
      { ...event, venue: 'v', venueEventId, marketKeys: markets },
      { bytes: Buffer.from('{}'), refs: '' },
      new EntryViews(),
      shared,
    );
    const keys = decodeKeys('v', venueEventId, JSON.parse(encodeKeys(swept)), blocks);
    return [swept, new StoredEntry(keys, { bytes: Buffer.from('{}'), refs: '' }, new EntryViews(), shared)];
  });
  for (const entry of entries) {
    expect(entry.packedMarkets.texts).toBe(entries[0]!.packedMarkets.texts);
    expect(entry.packedMarkets.tagLists).toBe(entries[0]!.packedMarkets.tagLists);
    expect(entry.rows.map(keysOf)).toEqual(markets);
  }
});
