import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, inflateRawSync } from 'node:zlib';
import { withoutBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { EmbeddedCatalogStore } from '../src/embedded/embedded-store.js';
import { wrapPiecedJson } from '../src/json-out.js';
import { answerFromCatalog } from '../src/pass-through.js';
import { entries, fixtureEvent, sweepRecord } from './fixtures.js';

/** An event of the fixture's shape, with any title, some markets, and its markets' binary references kept or left out. */
const arbitraryEvent = (index: number) =>
  fc
    .record({
      title: fc.string({ unit: 'grapheme', maxLength: 40 }),
      markets: fc.integer({ min: 0, max: 4 }),
      volume24h: fc.integer({ min: 0, max: 1000 }),
      bare: fc.boolean(),
    })
    .map(({ title, markets, volume24h, bare }): Event => {
      const event = fixtureEvent('alpha', `e${index}`, { title, markets, volume24h });
      return bare ? { ...event, markets: event.markets.map((market) => withoutBinaryRefs(market) as Market) } : event;
    });

const catalogCase = fc.record({
  events: fc.integer({ min: 1, max: 12 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => arbitraryEvent(index)))),
  onDisk: fc.boolean(),
  // Pieces made in the background before the requests, or made for the first answer that needs them.
  filledFirst: fc.boolean(),
  pages: fc.array(fc.record({ limit: fc.integer({ min: 1, max: 15 }), offset: fc.integer({ min: 0, max: 14 }) }), { minLength: 1, maxLength: 4 }),
  ids: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
});

test('pass-through event and market answers gzipped from their pieces decode to exactly the identity answer', async () => {
  await fc.assert(
    fc.asyncProperty(catalogCase, async ({ events, onDisk, filledFirst, pages, ids }) => {
      const store = new EmbeddedCatalogStore(onDisk ? { dir: mkdtempSync(join(tmpdir(), 'predgate-source-pieces-')) } : {});
      await store.open();
      try {
        const writer = await store.beginSweep('alpha', 'alpha-1');
        await writer.add(entries('alpha', events));
        await writer.commit(sweepRecord('alpha', 'alpha-1', events));
        if (filledFirst) await store.piecesMade();
        const calls = [
          ...pages.map(({ limit, offset }) => answerFromCatalog(store, 'alpha', 'fetchEvents', { limit, offset, status: 'all' })),
          ...ids.map((id) => answerFromCatalog(store, 'alpha', 'fetchEvent', { eventId: events[id % events.length]!.id, status: 'all' })),
          ...pages.map(({ limit, offset }) => answerFromCatalog(store, 'alpha', 'fetchMarkets', { limit, offset, status: 'all' })),
          ...ids.flatMap((id) => {
            const markets = events[id % events.length]!.markets;
            const market = markets[id % Math.max(1, markets.length)];
            return market ? [answerFromCatalog(store, 'alpha', 'fetchMarket', { marketId: market.marketId, status: 'all' })] : [];
          }),
        ];
        for (const writer of await Promise.all(calls)) {
          expect(writer).toBeDefined();
          const answer = wrapPiecedJson(writer!, '{"success":true,"data":', '}');
          const gzip = answer.gzip();
          // An empty page holds no event or market: it has no pieces to be stitched from.
          if (answer.json.toString('utf8') === '{"success":true,"data":[]}') expect(gzip).toBeUndefined();
          else expect(gunzipSync(gzip!).equals(answer.json)).toBe(true);
        }
      } finally {
        await store.close();
      }
    }),
    { numRuns: 25, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});

test('an unchanged event carried over by the next sweep keeps its pieces; a changed one gets a piece of its new bytes', async () => {
  const store = new EmbeddedCatalogStore();
  await store.open();
  const first = [fixtureEvent('alpha', 'a1'), fixtureEvent('alpha', 'a2')];
  const sweep = async (sweepId: string, events: Event[]) => {
    const writer = await store.beginSweep('alpha', sweepId);
    await writer.add(entries('alpha', events));
    await writer.commit(sweepRecord('alpha', sweepId, events));
    await store.piecesMade();
    return (await store.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).items;
  };
  const before = await sweep('alpha-1', first);
  expect(before.every((entry) => entry.keptSourceDeflated !== undefined)).toBe(true);
  const after = await sweep('alpha-2', [{ ...first[0]!, title: 'Changed' }, first[1]!]);
  const [changed, unchanged] = ['a1', 'a2'].map((id) => after.find((entry) => entry.venueEventId === id)!);
  const unchangedBefore = before.find((entry) => entry.venueEventId === 'a2')!;
  expect(unchanged!.keptSourceDeflated).toBe(unchangedBefore.keptSourceDeflated);
  // Its markets' pieces too, each the very piece made for the sweep before.
  expect(unchangedBefore.keptMarketsDeflated).toHaveLength(2);
  unchangedBefore.keptMarketsDeflated!.forEach((piece, index) => expect(unchanged!.keptMarketsDeflated![index]).toBe(piece));
  const piece = changed!.keptSourceDeflated!;
  const deflated = Buffer.alloc(piece.deflatedLength);
  piece.readDeflatedInto(deflated, 0);
  const inflated = inflateRawSync(deflated, { finishFlush: constants.Z_SYNC_FLUSH });
  expect(inflated.equals(changed!.sourceJson)).toBe(true);
  expect(inflated.toString('utf8')).toContain('"title":"Changed"');
  await store.close();
});
