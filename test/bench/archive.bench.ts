import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { readMarketFrame } from '@predgate/adapter-polymarket/streams';
// The bench package does not depend on the archive; its sources are read in place, as the gateway reads them.
import { PolymarketArchive } from '../../archive/src/index.js';

/**
 * One synthetic hour of Polymarket's market channel at real volume, through
 * the archive as the recorder drives it. Facts it is scaled to: pmxt's v2
 * hours hold 24-75 million rows (an audited NBA hour: 75,587,694 rows in
 * 436 MB, 5.8 B/row; the smallest listed file 7.2 B/row), 99.6% of them
 * `price_change` rows (a message carries both tokens of its market, so about
 * two rows a message), 0.27% `book`, 0.09% `last_trade_price`, a few
 * `tick_size_change`; pmxt subscribes to every live asset. pmxt's v2 overview
 * (archive.pmxt.dev/docs/v2-data-overview) lists about 31 GB over 94 hourly
 * files, 100-400 MB each, price_change about 99.7% of rows: at 6-7 B/row an
 * average hour is about 50 million rows, so 25 million is a quiet hour. `ARCHIVE_BENCH_ROWS`
 * (25,000,000) and `ARCHIVE_BENCH_TOKENS` (40,000: about 20,000 live binary
 * markets, an assumption) set the size; a few markets take most of the traffic.
 */
export interface ArchiveFigures {
  rows: number;
  messages: number;
  tokens: number;
  ingestMessagesPerSecondPerCore: number;
  recorderPeakRssMiB: number;
  rollSeconds: number;
  rollPeakRssMiB: number;
  rollEventLoopDelayP99Ms: number;
  rollEventLoopDelayMaxMs: number;
  fileBytes: number;
  bytesPerRow: number;
  rowGroups: number;
  rowsPerGroup: number;
  sinceP50Ms: number;
  sinceP95Ms: number;
  range1000P50Ms: number;
  range1000P95Ms: number;
  rangeBooksReturned: number;
  importSeconds: number;
  importPeakRssMiB: number;
  uptime: string;
}

const hour = Date.UTC(2026, 10, 20, 12);
const hourMs = 3_600_000;

export async function benchArchive(): Promise<{ summary: string; details: ArchiveFigures }> {
  const targetRows = Number(process.env.ARCHIVE_BENCH_ROWS ?? 25_000_000);
  const tokens = Number(process.env.ARCHIVE_BENCH_TOKENS ?? 40_000);
  const dir = mkdtempSync(join(tmpdir(), 'archive-bench-'));
  let now = hour;
  const archive = await PolymarketArchive.open({ dir, now: () => now, flushIntervalMs: 200 });
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
  try {
    const random = seeded(42);
    const markets = tokens / 2;
    let rows = 0;
    let messages = 0;
    let cpuMicros = 0;
    let frames: { text: string; at: number }[] = [];
    const record = () => {
      const started = process.cpuUsage();
      for (const frame of frames) {
        now = frame.at;
        const read = readMarketFrame(frame.text, frame.at);
        archive.append(read.rows, { text: frame.text, receivedAt: frame.at });
        rows += read.rows.length;
      }
      archive.flush();
      const used = process.cpuUsage(started);
      // Recording here is synchronous batches, so the sampler's timer does not run during them: read the size after each.
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      cpuMicros += used.user + used.system;
      messages += frames.length;
      frames = [];
    };
    // Every token starts with a book, as the first frames after subscribing carry them.
    for (let market = 0; market < markets; market += 1) {
      for (const token of [market * 2, market * 2 + 1])
        frames.push({ at: hour + 1 + Math.floor(market / 100), text: JSON.stringify(bookMessage(market, token, hour, random)) });
      if (frames.length >= 20_000) record();
    }
    const estimatedMessages = targetRows / 2;
    const step = (hourMs - 10_000) / estimatedMessages;
    let time = hour + 1_000;
    while (rows + frames.length * 2 < targetRows) {
      time += step;
      // A few markets are far busier than the rest (squared uniform: the first 1% take about 10% of the traffic).
      const market = Math.floor(random() * random() * markets);
      const kind = random();
      const at = Math.floor(time);
      let message: object;
      if (kind < 0.9955) message = priceChange(market, at, random);
      else if (kind < 0.9982) message = bookMessage(market, market * 2 + (kind < 0.997 ? 0 : 1), at, random);
      else if (kind < 0.99999) message = trade(market, at, random);
      else
        message = {
          event_type: 'tick_size_change',
          asset_id: tokenId(market * 2),
          market: marketId(market),
          old_tick_size: '0.01',
          new_tick_size: '0.001',
          timestamp: String(at),
        };
      frames.push({ at: at + 40 + Math.floor(random() * 200), text: JSON.stringify(message) });
      if (frames.length >= 20_000) record();
    }
    record();
    const ingestPeak = peakRss;
    progress(`recorded ${rows} rows, ${messages} messages: ${Math.round(messages / (cpuMicros / 1e6))} msg/s per core, peak RSS ${mib(ingestPeak)} MiB`);

    // The hour closes: it is rolled in a child process while this loop's delay is watched.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    now = hour + hourMs + 1;
    const rolling = performance.now();
    await archive.rollDue();
    const rollMs = performance.now() - rolling;
    delay.disable();
    const roll = archive.lastRoll!;
    const file = join(dir, 'files', archive.listFiles()[0]!.name);
    const fileBytes = statSync(file).size;
    const groups = await rowGroups(file);
    progress(
      `rolled in ${round(rollMs / 1000)} s, roll RSS ${mib(roll.peakRssBytes ?? 0)} MiB, loop delay p99 ${round(delay.percentile(99) / 1e6)} ms, ${round(fileBytes / roll.rows)} B/row`,
    );
    await archive.close();

    // A fresh reader, as the gateway opens the archive: nothing cached.
    const reader = await PolymarketArchive.open({ dir, mode: 'read' });
    const sinceTimes: number[] = [];
    for (let query = 0; query < 500; query += 1) {
      const token = Math.floor(random() * tokens);
      const since = hour + Math.floor(random() * hourMs);
      const started = performance.now();
      await reader.bookAt(tokenId(token), since);
      sinceTimes.push(performance.now() - started);
    }
    const rangeTimes: number[] = [];
    let rangeBooks = 0;
    for (let query = 0; query < 20; query += 1) {
      // The busiest markets, so that a range really holds 1000 books.
      const token = Math.floor(random() * 4);
      const since = hour + Math.floor(random() * (hourMs / 2));
      const started = performance.now();
      const books = await reader.booksBetween(tokenId(token), { since, until: hour + hourMs - 1, limit: 1000 });
      rangeTimes.push(performance.now() - started);
      rangeBooks += books.length;
    }
    await reader.close();
    progress(
      `since p50/p95 ${round(percentile(sinceTimes, 0.5))}/${round(percentile(sinceTimes, 0.95))} ms; range p50/p95 ${round(percentile(rangeTimes, 0.5))}/${round(percentile(rangeTimes, 0.95))} ms`,
    );

    const imported = await importInChild(file, join(dir, 'imported'));
    const figures: ArchiveFigures = {
      rows,
      messages,
      tokens,
      ingestMessagesPerSecondPerCore: Math.round(messages / (cpuMicros / 1e6)),
      recorderPeakRssMiB: mib(ingestPeak),
      rollSeconds: round(rollMs / 1000),
      rollPeakRssMiB: mib(roll.peakRssBytes ?? 0),
      rollEventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
      rollEventLoopDelayMaxMs: round(delay.max / 1e6),
      fileBytes,
      bytesPerRow: round(fileBytes / roll.rows),
      rowGroups: groups.count,
      rowsPerGroup: groups.largest,
      sinceP50Ms: round(percentile(sinceTimes, 0.5)),
      sinceP95Ms: round(percentile(sinceTimes, 0.95)),
      range1000P50Ms: round(percentile(rangeTimes, 0.5)),
      range1000P95Ms: round(percentile(rangeTimes, 0.95)),
      rangeBooksReturned: Math.round(rangeBooks / rangeTimes.length),
      importSeconds: round(imported.ms / 1000),
      importPeakRssMiB: mib(imported.maxRssBytes),
      uptime: execFileSync('uptime').toString().trim(),
    };
    const summary = [
      `One synthetic hour: ${messages.toLocaleString('en')} messages, ${rows.toLocaleString('en')} rows over ${tokens.toLocaleString('en')} tokens. Machine load: \`${figures.uptime}\`.`,
      '',
      '| figure | value | goal |',
      '|---|---|---|',
      `| recording: parse + journal + books, messages/s per core (CPU time) | ${figures.ingestMessagesPerSecondPerCore.toLocaleString('en')} | ≥ 50,000 |`,
      `| recording process peak RSS (journal on disk) | ${figures.recorderPeakRssMiB} MiB | ≤ 1,536 MiB |`,
      `| roll (child process: DuckDB sort, 512 MB limit, then the pmxt writer) | ${figures.rollSeconds} s, peak RSS ${figures.rollPeakRssMiB} MiB | ≤ 1,536 MiB |`,
      `| event-loop delay of the recording process during the roll, p99 / max | ${figures.rollEventLoopDelayP99Ms} / ${figures.rollEventLoopDelayMaxMs} ms | p99 ≤ 50 ms |`,
      `| file | ${(fileBytes / 2 ** 20).toFixed(1)} MiB, ${figures.bytesPerRow} B/row (pmxt's real files 5.8-7.2), ${figures.rowGroups} row groups of up to ${figures.rowsPerGroup.toLocaleString('en')} rows | ≤ 8 B/row |`,
      `| \`since\` (one book), p50 / p95, cold reader | ${figures.sinceP50Ms} / ${figures.sinceP95Ms} ms | p95 ≤ 10 ms |`,
      `| 1000-book range, p50 / p95 (${figures.rangeBooksReturned} books on average) | ${figures.range1000P50Ms} / ${figures.range1000P95Ms} ms | p95 ≤ 250 ms |`,
      `| importing that file into an empty archive (own process) | ${figures.importSeconds} s, peak RSS ${figures.importPeakRssMiB} MiB | ≤ 1,536 MiB |`,
    ].join('\n');
    return { summary, details: figures };
  } finally {
    clearInterval(sampler);
    await archive.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Imports a file in a process of its own, so its peak memory is the importer's alone. */
function importInChild(file: string, dir: string): Promise<{ ms: number; maxRssBytes: number }> {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', join(import.meta.dirname, 'archive-import.ts'), file, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output) as { ms: number; maxRssBytes: number }) : reject(new Error(`import exited with ${code}`)),
    );
  });
}

async function rowGroups(file: string): Promise<{ count: number; largest: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT count(*) AS n, max(rows) AS largest FROM (SELECT row_group_id, any_value(row_group_num_rows) AS rows FROM parquet_metadata('${file}') GROUP BY row_group_id)`,
    );
    const [record] = reader.getRowObjectsJS();
    return { count: Number(record!.n), largest: Number(record!.largest) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function tokenId(index: number): string {
  return `${7_000_000_000 + index}${'1'.repeat(66)}`;
}

function marketId(market: number): string {
  return `0x${market.toString(16).padStart(64, '0')}`;
}

function level(price: number, random: () => number) {
  return { price: price.toFixed(2), size: (Math.round(random() * 500_000) / 100).toFixed(2) };
}

function bookMessage(market: number, token: number, time: number, random: () => number) {
  return {
    event_type: 'book',
    asset_id: tokenId(token),
    market: marketId(market),
    timestamp: String(time),
    hash: 'f'.repeat(40),
    bids: Array.from({ length: 15 }, (_, index) => level(0.35 + index * 0.01, random)),
    asks: Array.from({ length: 15 }, (_, index) => level(0.65 - index * 0.01, random)),
    tick_size: '0.01',
  };
}

function priceChange(market: number, time: number, random: () => number) {
  const cents = 30 + Math.floor(random() * 40);
  const size = random() < 0.2 ? '0' : (Math.round(random() * 200_000) / 100).toFixed(2);
  const price = (cents / 100).toFixed(2);
  const other = ((100 - cents) / 100).toFixed(2);
  return {
    event_type: 'price_change',
    market: marketId(market),
    timestamp: String(time),
    price_changes: [
      { asset_id: tokenId(market * 2), price, size, side: 'BUY', hash: 'a'.repeat(40), best_bid: price, best_ask: '0.71' },
      { asset_id: tokenId(market * 2 + 1), price: other, size, side: 'SELL', hash: 'b'.repeat(40), best_bid: '0.29', best_ask: other },
    ],
  };
}

function trade(market: number, time: number, random: () => number) {
  return {
    event_type: 'last_trade_price',
    asset_id: tokenId(market * 2),
    market: marketId(market),
    price: (0.3 + Math.floor(random() * 40) / 100).toFixed(2),
    size: String(Math.round(random() * 100)),
    side: 'BUY',
    fee_rate_bps: '0',
    timestamp: String(time),
    transaction_hash: `0x${'ab'.repeat(32)}`,
  };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

/** Figures as they are measured, with the machine's load: a long run that is stopped still leaves them. */
function progress(line: string): void {
  process.stderr.write(`[${new Date().toISOString()}] ${line} (${execFileSync('uptime').toString().trim()})\n`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}

/** A small deterministic generator, so every run builds the same hour. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
