import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { BookState, readMarketFrame } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { HourJournal, stageJournal } from '../src/journal.js';
import { bookAt } from '../src/reconstruct.js';
import { parseStagedLine } from '../src/staged-rows.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour = Date.UTC(2026, 10, 23, 14);
const market = `0x${'c3'.repeat(32)}`;

/** The journal's carried-book lines (`C` with row 0), as token ids in the order written. */
function carriedTokens(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('C'))
    .map((line) => JSON.parse(line.slice(1)) as { a: string; r: number })
    .filter((entry) => entry.r === 0)
    .map((entry) => entry.a);
}

test("the books carried into a new hour are written between turns of the event loop, each before its token's first row", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-journal-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const books = new Map<string, BookState>();
  const levels = (from: number) => Array.from({ length: 40 }, (_, index) => ({ price: ((from + index) / 100).toFixed(2), size: String(100 + index) }));
  for (let token = 0; token < 4_000; token += 1) {
    const assetId = `${token + 1}${'5'.repeat(70)}`;
    books.set(assetId, BookState.from({ assetId, market, timestamp: hour - 1_000, bids: levels(1), asks: levels(55), syncedAt: hour - 5_000 }));
  }
  const tokens = [...books.keys()];
  const journal = HourJournal.create(hour, path, books, { every: 500, maxAgeMs: 300_000 }, () => hour + 10);
  // Nothing is written while the hour changes: the recording loop goes on at once.
  journal.flush();
  expect(carriedTokens(path)).toEqual([]);
  const afterFirstTurn = new Promise<number>((resolve) =>
    setImmediate(() => {
      journal.flush();
      resolve(carriedTokens(path).length);
    }),
  );

  // A row of a token not carried yet: its book as it was at the hour's start is written first.
  const last = tokens.at(-1)!;
  journal.append([{ receivedAt: hour + 10, timestamp: hour + 9, market, eventType: 'price_change', assetId: last, price: '0.30', size: '7', side: 'BUY' }]);
  journal.flush();
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('T'));
  expect(lines[0]).toMatch(new RegExp(`^C\\{"a":"${last}","r":0,`));
  expect(lines[1]).toMatch(/^R/);

  // One slice of books per turn: the loop turned before all were written.
  const written = await afterFirstTurn;
  expect(written).toBeGreaterThan(1);
  expect(written).toBeLessThan(tokens.length);
  await journal.carriedIn;
  journal.close();
  const carried = carriedTokens(path);
  expect(carried).toHaveLength(tokens.length);
  expect(new Set(carried)).toEqual(new Set(tokens));

  // The roll reads every carried book, the early one without the row that followed it.
  const startBooks = stageJournal(path, join(dir, 'staged.tsv'));
  expect(startBooks.size).toBe(tokens.length);
  expect(JSON.parse(startBooks.get(last)!)).toMatchObject({ bids: levels(1), timestamp: hour - 1_000 });
});

test('a row whose token id or transaction hash holds a tab or line break is left out of the staged rows, and the rows around it stage whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-journal-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const journal = HourJournal.create(hour, path, new Map(), { every: 500, maxAgeMs: 300_000 }, () => hour + 10);
  const token = '7'.repeat(76);
  const trade = (assetId: string, transactionHash: string, at: number) => ({
    receivedAt: hour + at,
    timestamp: hour + at,
    market,
    eventType: 'last_trade_price' as const,
    assetId,
    price: '0.41',
    size: '12',
    side: 'BUY' as const,
    transactionHash,
  });
  journal.append([trade(token, '0xaa', 1), trade(`${token}\t0.99`, '0xbb', 2), trade(token, '0xcc\n0.5', 3), trade(token, '0xdd', 4)]);
  journal.close();

  const stagedPath = join(dir, 'staged.tsv');
  stageJournal(path, stagedPath);
  const staged = readFileSync(stagedPath, 'utf8').split('\n').filter(Boolean).map(parseStagedLine);
  expect(staged.map((row) => ({ assetId: row.assetId, hash: row.transactionHash, price: row.price, size: row.size }))).toEqual([
    { assetId: token, hash: '0xaa', price: '0.41', size: '12' },
    { assetId: token, hash: '0xdd', price: '0.41', size: '12' },
  ]);
});

test("a token's book longer than the journal's write buffer is written whole, after the lines before it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-journal-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const row = { receivedAt: hour + 10, timestamp: hour + 9, market } as const;
  const small = `1${'5'.repeat(70)}`;
  const large = `2${'5'.repeat(70)}`;
  // About 5 MB of levels, carried into the hour: more than the 4 MiB buffer, which no line before it grew.
  const bids = Array.from({ length: 130_000 }, (_, index) => ({ price: ((100_000 + index) / 1e6).toFixed(6), size: String(index + 1) }));
  const asks = [{ price: '0.9', size: '1' }];
  const books = new Map([[large, BookState.from({ assetId: large, market, timestamp: hour - 1_000, bids, asks })]]);
  const journal = HourJournal.create(hour, path, books, { every: 500, maxAgeMs: 300_000 }, () => hour + 10);
  journal.append([{ ...row, eventType: 'book', assetId: small, bids: [{ price: '0.40', size: '5' }], asks: [] }]);
  journal.append([{ ...row, eventType: 'price_change', assetId: large, price: '0.41', size: '6', side: 'BUY' }]);
  journal.close();

  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines.filter((line) => line.startsWith('C')).map((line) => (JSON.parse(line.slice(1)) as { a: string }).a)).toEqual([small, large]);
  const recovered = HourJournal.recover(hour, path, new Map(), { every: 500, maxAgeMs: 300_000 }, () => hour + 20);
  const carried = recovered.assetHour(large, hour + 20);
  // Compared as text: a deep comparison of 130,000 levels is most of the test's time.
  expect(JSON.stringify([carried.checkpoints[0]!.snapshot.bids, carried.checkpoints[0]!.snapshot.asks])).toBe(JSON.stringify([bids, asks]));
  expect(carried.rows.map((entry) => entry.price)).toEqual(['0.41']);
  expect(recovered.assetHour(small, hour + 20).checkpoints[0]!.snapshot.bids).toEqual([{ price: '0.40', size: '5' }]);
  recovered.close();
});

/** A market-channel frame of one price change, its JSON padded with `padding` spaces (whitespace JSON allows). */
function changeFrame(assetId: string, at: number, price: string, size: string, padding = 0): string {
  return `{"event_type":"price_change",${' '.repeat(padding)}"market":"${market}","timestamp":"${at}","price_changes":[{"asset_id":"${assetId}","price":"${price}","size":"${size}","side":"BUY"}]}`;
}

/** Rewrites, in place, each journal line `replace` returns text for: the new text padded with spaces to the line's length. */
function rewriteLines(path: string, replace: (line: string) => string | undefined): number {
  const lines = readFileSync(path, 'utf8').split('\n');
  let rewritten = 0;
  const out = lines.map((line) => {
    const text = replace(line);
    if (text === undefined) return line;
    expect(text.length).toBeLessThanOrEqual(line.length);
    rewritten += 1;
    return text.padEnd(line.length, ' ');
  });
  writeFileSync(path, out.join('\n'));
  return rewritten;
}

test("a read of the open hour reads its token's lines alone, and with `until` none past the checkpoint after it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-journal-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const busy = `1${'1'.repeat(76)}`;
  const quiet = `2${'2'.repeat(76)}`;
  const others = Array.from({ length: 40 }, (_, index) => `${index + 3}${'3'.repeat(75)}`);
  const policy = { every: 20, maxAgeMs: 300_000 };
  const journal = HourJournal.create(hour, path, new Map(), policy, () => hour);
  const truth = new Map([busy, quiet, ...others].map((assetId) => [assetId, [] as MarketRow[]]));
  const record = (text: string, receivedAt: number) => {
    const rows = readMarketFrame(text, receivedAt).rows;
    for (const row of rows) truth.get(row.assetId)!.push(row);
    journal.append(rows, { text, receivedAt });
  };
  let at = hour + 1_000;
  for (const assetId of [busy, quiet, ...others]) {
    at += 10;
    record(
      `[{"event_type":"book","market":"${market}","asset_id":"${assetId}","timestamp":"${at}","bids":[{"price":"0.40","size":"100"}],"asks":[{"price":"0.60","size":"100"}]}]`,
      at,
    );
  }
  for (let index = 0; index < 3_000; index += 1) {
    at += 10;
    const assetId = index % 150 === 0 ? quiet : index % 3 === 0 ? busy : others[index % others.length]!;
    record(changeFrame(assetId, at, ((index % 19) / 100 + 0.41).toFixed(2), String(index + 1), 20), at);
  }
  journal.flush();

  const source = {
    assetHour: async (start: number, assetId: string, since: number, until?: number) => (start === hour ? journal.assetHour(assetId, since, until) : undefined),
  };
  const options = { lookbackHours: 0, gapOf: () => undefined };
  const expected = (assetId: string, moment: number) => {
    const book = new BookState(assetId);
    for (const row of truth.get(assetId)!) if (row.timestamp <= moment) book.apply(row);
    return book.snapshot();
  };
  const moments = Array.from({ length: 12 }, (_, index) => hour + 1_500 + index * 2_600);

  // Every other token's line now reads as a change of the busy and the quiet token: one read would show in their books.
  const bogus = (assetId: string) => (line: string) => {
    const receivedAt = Number(line.slice(1, line.indexOf(' ')));
    return `F${receivedAt} ${changeFrame(assetId, receivedAt, '0.99', '424242')}`;
  };
  const othersLine = (line: string) => line.startsWith('F') && !line.includes(busy) && !line.includes(quiet) && !line.includes('"book"');
  let turn = 0;
  expect(rewriteLines(path, (line) => (othersLine(line) ? bogus(turn++ % 2 === 0 ? busy : quiet)(line) : undefined))).toBeGreaterThan(1_500);
  for (const moment of moments) {
    for (const assetId of [busy, quiet]) expect(await bookAt(source, assetId, moment, options)).toEqual(expected(assetId, moment));
  }

  // A `since` early in the hour: the busy token's own lines past the checkpoint after it are not read either (they
  // would no longer read as frames).
  const early = moments[0]!;
  const checkpoints = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`C{"a":"${busy}"`))
    .map((line) => JSON.parse(line.slice(1)) as { r: number; s: { timestamp: number } });
  const past = checkpoints.find((checkpoint) => checkpoint.r > 0 && checkpoint.s.timestamp > early)!;
  let afterPast = false;
  const rewritten = rewriteLines(path, (line) => {
    if (line.startsWith(`C{"a":"${busy}","r":${past.r},`)) afterPast = true;
    return afterPast && line.startsWith('F') && line.includes(busy) ? `F${hour} torn ${busy}` : undefined;
  });
  expect(rewritten).toBeGreaterThan(500);
  expect(await bookAt(source, busy, early, options)).toEqual(expected(busy, early));
  journal.close();
});

test('a journal replayed after a crash is not written to: its checkpoints stay where they were, and a second restart reads the same books', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-journal-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const token = `9${'1'.repeat(76)}`;
  const policy = { every: 5, maxAgeMs: 300_000 };
  const journal = HourJournal.create(hour, path, new Map(), policy, () => hour);
  let at = hour + 1_000;
  const book = `[{"event_type":"book","market":"${market}","asset_id":"${token}","timestamp":"${at}","bids":[{"price":"0.40","size":"100"}],"asks":[]}]`;
  journal.append(readMarketFrame(book, at).rows, { text: book, receivedAt: at });
  for (let index = 0; index < 40; index += 1) {
    at += 10;
    const text = changeFrame(token, at, '0.41', String(index + 1));
    journal.append(readMarketFrame(text, at).rows, { text, receivedAt: at });
  }
  journal.flush();
  const checkpointLines = () =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('C'));
  const before = checkpointLines();
  const sizeAt = async (reader: HourJournal, moment: number) => {
    const source = { assetHour: async (start: number, assetId: string, since: number, until?: number) => reader.assetHour(assetId, since, until) };
    return (await bookAt(source, token, moment, { lookbackHours: 0, gapOf: () => undefined }))?.bids.find((level) => level.price === '0.41')?.size;
  };
  const moments = [hour + 1_095, hour + 1_255, hour + 1_400];
  const expected = await Promise.all(moments.map((moment) => sizeAt(journal, moment)));
  expect(expected).toEqual(['9', '25', '40']);

  // No close: the process is gone, twice.
  for (let restart = 0; restart < 2; restart += 1) {
    const recovered = HourJournal.recover(hour, path, new Map(), policy, () => at);
    recovered.flush();
    expect(checkpointLines()).toEqual(before);
    expect(await Promise.all(moments.map((moment) => sizeAt(recovered, moment)))).toEqual(expected);
  }
});
