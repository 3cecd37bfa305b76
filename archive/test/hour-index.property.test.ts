import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, expect, test } from 'vitest';
import { BookState, toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../src/index.js';
import { levelsOf } from '../src/staged-rows.js';
import { queryDuckDb } from './duckdb-query.js';

const hour = Date.UTC(2026, 10, 24, 3);
const assets = ['101', '102', '203', '204'];
const marketOf = (asset: string) => `0x${asset[0]!.repeat(64)}`;
const price = fc.integer({ min: 1, max: 99 }).map((cents) => (cents / 100).toFixed(2));
// Some books are long (hundreds of levels), so the level columns span several pages and a read must pick the right ones.
const levels = fc.array(fc.record({ price, size: fc.integer({ min: 1, max: 90_000 }).map(String) }), { maxLength: 1200 });

const row = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('book' as const), asset: fc.constantFrom(...assets), bids: levels, asks: levels }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('price_change' as const),
      asset: fc.constantFrom(...assets),
      price,
      size: fc.oneof(fc.constant('0'), fc.integer({ min: 1, max: 5000 }).map(String)),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('last_trade_price' as const), asset: fc.constantFrom(...assets), price }) },
);

type Generated = typeof row extends fc.Arbitrary<infer T> ? T : never;

function marketRow(generated: Generated, receivedAt: number, lag: number): MarketRow {
  const base = { receivedAt, timestamp: receivedAt - lag, market: marketOf(generated.asset), assetId: generated.asset };
  if (generated.kind === 'book') return { ...base, eventType: 'book', bids: generated.bids, asks: generated.asks };
  if (generated.kind === 'price_change') return { ...base, eventType: 'price_change', price: generated.price, size: generated.size, side: generated.side };
  return { ...base, eventType: 'last_trade_price', price: generated.price, size: '10', side: 'BUY' };
}

/** Every row of an hour file in file order, read with plain SQL (no index, no checkpoints), by token. */
async function rowsWithoutIndex(file: string): Promise<Map<string, MarketRow[]>> {
  const records = await queryDuckDb(
    `SELECT epoch_ms(timestamp_received) AS received, epoch_ms("timestamp") AS venue, decode(market) AS market, event_type, asset_id, bids, asks,
       CAST(price AS VARCHAR) AS price, CAST(size AS VARCHAR) AS size, side
     FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`,
  );
  const byToken = new Map<string, MarketRow[]>();
  for (const record of records) {
    const assetId = String(record.asset_id);
    const row: MarketRow = {
      receivedAt: Number(record.received),
      timestamp: Number(record.venue),
      market: String(record.market),
      eventType: record.event_type as MarketRow['eventType'],
      assetId,
    };
    if (record.bids !== null) row.bids = levelsOf(String(record.bids));
    if (record.asks !== null) row.asks = levelsOf(String(record.asks));
    if (record.price !== null) row.price = String(record.price);
    if (record.size !== null) row.size = String(record.size);
    if (record.side === 'BUY' || record.side === 'SELL') row.side = record.side;
    byToken.set(assetId, [...(byToken.get(assetId) ?? []), row]);
  }
  return byToken;
}

/** The book replayed from nothing over every row of the token until the first that counts after `since` (a row counts at the latest venue time seen so far). */
function bookWithoutIndex(rows: MarketRow[], assetId: string, since: number) {
  const state = new BookState(assetId);
  for (const row of rows) {
    if (Math.max(state.timestamp, row.timestamp) > since) break;
    state.apply(row);
  }
  return state.known ? state.snapshot() : undefined;
}

/**
 * The book as the API serves it (numbers): a checkpoint keeps the venue's text
 * ("0.10"), a row read back from a decimal column its file text ("0.1000").
 */
const orderBook = (snapshot: BookSnapshot | undefined) => snapshot && { ...toOrderBook(snapshot), syncedAt: snapshot.syncedAt };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('a `since`, and the last book of a range, answered through the hour index equal the ones replayed from every row of the file, for random tokens and instants', async () => {
  await fc.assert(
    fc.asyncProperty(
      // Enough rows that most tokens get a book and several checkpoints, so reads start at a checkpoint and stop at a later one.
      fc.array(fc.record({ row, wait: fc.integer({ min: 1, max: 20_000 }), lag: fc.integer({ min: 0, max: 3_000 }) }), { minLength: 40, maxLength: 120 }),
      fc.array(
        fc.record({ asset: fc.constantFrom(...assets), at: fc.integer({ min: -5_000, max: 45 * 60_000 }), span: fc.integer({ min: 0, max: 10 * 60_000 }) }),
        { minLength: 4, maxLength: 12 },
      ),
      fc.integer({ min: 1, max: 6 }),
      async (steps, queries, checkpointEvery) => {
        const dir = mkdtempSync(join(tmpdir(), 'archive-index-'));
        dirs.push(dir);
        let now = hour + 10_000;
        const archive = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery, flushIntervalMs: 60_000, rollInChildProcess: false });
        try {
          // At most 120 rows 20 s apart: every row and every instant asked stay well inside the hour.
          for (const step of steps) {
            now += step.wait;
            archive.append([marketRow(step.row, now, step.lag)]);
          }
          archive.flush();
          now = hour + 3_600_000 + 1;
          await archive.rollDue();
          const rows = await rowsWithoutIndex(join(archive.filesDir, archive.listFiles()[0]!.name));
          for (const query of queries) {
            const since = hour + query.at;
            const tokenRows = rows.get(query.asset) ?? [];
            expect(orderBook(await archive.bookAt(query.asset, since))).toEqual(orderBook(bookWithoutIndex(tokenRows, query.asset, since)));
            // A range's last book is the book at its end: the rows a range reads reach that far.
            const until = since + query.span;
            const books = await archive.booksBetween(query.asset, { since, until, limit: 10_000 });
            expect(orderBook(books.at(-1))).toEqual(orderBook(bookWithoutIndex(tokenRows, query.asset, until)));
          }
        } finally {
          await archive.close();
        }
      },
    ),
    { numRuns: Number(process.env.FC_RUNS ?? 4), endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});
