import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Event } from '@predgate/core';
import { expect, test } from 'vitest';
import { EmbeddedCatalogStore } from '../src/embedded/embedded-store.js';
import type { StoredEntry } from '../src/embedded/stored-entry.js';
import { wrapPiecedJson } from '../src/json-out.js';
import { routerEventsJson } from '../src/serialize.js';
import { entries, sampleCatalog, sweepRecord } from './fixtures.js';

async function commitSweep(store: EmbeddedCatalogStore, venue: string, sweepId: string, events: Event[]) {
  const writer = await store.beginSweep(venue, sweepId);
  await writer.add(entries(venue, events));
  await writer.commit(sweepRecord(venue, sweepId, events));
}

async function alphaPage(store: EmbeddedCatalogStore): Promise<StoredEntry[]> {
  return (await store.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).items;
}

/** The page as sent uncompressed, and as stitched from the entries' pieces, decompressed. */
function sentBothWays(page: StoredEntry[]): { identity: Buffer; stitched: Buffer } {
  const answer = wrapPiecedJson(routerEventsJson(page), '{"data":', '}');
  const gzip = answer.gzip();
  expect(gzip).toBeDefined();
  return { identity: answer.json, stitched: gunzipSync(gzip!) };
}

test('a published sweep gets its Router gzip pieces in the background; a re-swept event gets a piece of its new bytes', async () => {
  const store = new EmbeddedCatalogStore({ dir: mkdtempSync(join(tmpdir(), 'predgate-pieces-')) });
  await store.open();
  const alpha = sampleCatalog().alpha!;
  await commitSweep(store, 'alpha', 'alpha-1', alpha);
  await store.piecesMade();
  const first = await alphaPage(store);
  // Made off the request path: every entry already holds its piece before any page asks for one.
  expect(first.every((entry) => entry.keptRouterDeflated !== undefined)).toBe(true);
  const before = sentBothWays(first);
  expect(before.stitched.equals(before.identity)).toBe(true);

  const changed = [{ ...alpha[0]!, title: 'Changed after the first sweep' }, ...alpha.slice(1)];
  await commitSweep(store, 'alpha', 'alpha-2', changed);
  const second = await alphaPage(store);
  // An unchanged event keeps the piece it had; the changed one gets its own, for its new bytes.
  expect(second[1]!.keptRouterDeflated).toBe(first[1]!.keptRouterDeflated);
  await store.piecesMade();
  const after = sentBothWays(second);
  expect(after.stitched.equals(after.identity)).toBe(true);
  expect(after.stitched.toString('utf8')).toContain('Changed after the first sweep');
  await store.close();
});

test('reopened from disk, the catalog makes its pieces again, and a page asked for first is stitched from pieces made then', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'predgate-pieces-'));
  const store = new EmbeddedCatalogStore({ dir });
  await store.open();
  await commitSweep(store, 'alpha', 'alpha-1', sampleCatalog().alpha!);
  await store.close();
  const reopened = new EmbeddedCatalogStore({ dir });
  await reopened.open();
  // Asked for before the background reached it: the piece is made for this answer and kept.
  const page = await alphaPage(reopened);
  const early = sentBothWays(page);
  expect(early.stitched.equals(early.identity)).toBe(true);
  await reopened.piecesMade();
  expect(page.every((entry) => entry.keptRouterDeflated !== undefined)).toBe(true);
  await reopened.close();
});
