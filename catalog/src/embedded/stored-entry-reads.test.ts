import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { fixtureEvent } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import { JsonOut } from '../json-out.js';
import { eventJson } from './event-json.js';
import { FileBytes } from './file-bytes.js';
import { Interner } from './interner.js';
import { arrayMemberRanges } from './json-ranges.js';
import type * as JsonRanges from './json-ranges.js';
import { EntryViews, StoredEntry } from './stored-entry.js';

vi.mock('./json-ranges.js', async (original) => {
  const actual = await original<typeof JsonRanges>();
  return { ...actual, arrayMemberRanges: vi.fn(actual.arrayMemberRanges) };
});

test("an event sent again is written from the references' places found the first time, not by scanning its bytes again", () => {
  const entry = catalogEntry('alpha', fixtureEvent('alpha', 'a1'));
  const { json, refs } = eventJson(entry.source, entry);
  expect(refs).not.toBe('');
  const stored = new StoredEntry(entry, { bytes: Buffer.from(json), refs }, new EntryViews(), new Interner());
  const sent = () => {
    const out = new JsonOut();
    stored.writeSourceJson(out);
    return out.finish().toString('utf8');
  };
  const scans = vi.mocked(arrayMemberRanges);
  expect(sent()).toBe(JSON.stringify(fixtureEvent('alpha', 'a1')));
  const firstScans = scans.mock.calls.length;
  expect(firstScans).toBeGreaterThan(0);
  expect(sent()).toBe(JSON.stringify(fixtureEvent('alpha', 'a1')));
  expect(scans.mock.calls.length).toBe(firstScans);
});

test('a market read alone from its event in the file comes out exactly as the venue had it, the first time and again', () => {
  const event = fixtureEvent('alpha', 'a1');
  const entry = catalogEntry('alpha', event);
  const { json, refs } = eventJson(entry.source, entry);
  const path = join(mkdtempSync(join(tmpdir(), 'predgate-markets-')), 'events');
  writeFileSync(path, Buffer.concat([Buffer.from('{"before":1}\n'), Buffer.from(json), Buffer.from('\n{"after":2}')]));
  const file = new FileBytes(path);
  const stored = new StoredEntry(entry, { bytes: file.range(13, Buffer.byteLength(json)), refs }, new EntryViews(), new Interner());
  const sent = (index: number) => {
    const out = new JsonOut();
    out.text('[');
    stored.writeMarketJson(index, out);
    return out.finish().toString('utf8');
  };
  for (const round of [1, 2]) {
    event.markets.forEach((market, index) => expect(sent(index), `round ${round}`).toBe(`[${JSON.stringify(market)}`));
  }
  file.close();
});
