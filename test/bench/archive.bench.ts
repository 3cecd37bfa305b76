import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The bench package does not depend on the archive; its sources are read in place, as the gateway reads them.
import { readMarketFrame } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../../archive/src/index.js';

/**
 * One synthetic day of Polymarket's market channel, scaled down in
 * proportion: pmxt's public archive holds about 12 GB of Parquet a day; at
 * ~20 bytes a row (pmxt's published v1 files: 484 MB for 24.2 M rows) that is
 * roughly 600 M rows a day. `ARCHIVE_BENCH_SCALE` (default 1/1000) sets the share
 * of those rows generated, spread over 24 hours and `ARCHIVE_BENCH_TOKENS`
 * tokens (two per market), with the venue's mix: mostly two-entry
 * price_change messages, a full book resent after trades, some trades and tick changes.
 */
export interface ArchiveFigures {
  scale: number;
  tokens: number;
  messages: number;
  rows: number;
  ingestMessagesPerSecond: number;
  rollSeconds: number;
  bookAtP50Ms: number;
  bookAtP95Ms: number;
  range1000P50Ms: number;
  range1000P95Ms: number;
  parquetBytesPerMillionMessages: number;
  parquetBytesPerRow: number;
  checkpointBytesPerMillionMessages: number;
}

const pmxtRowsPerDay = 600_000_000;
const dayStart = Date.UTC(2026, 10, 20);
const hourMs = 3_600_000;

export async function benchArchive(): Promise<{ summary: string; details: ArchiveFigures }> {
  const scale = Number(process.env.ARCHIVE_BENCH_SCALE ?? 1 / 1000);
  const tokens = Number(process.env.ARCHIVE_BENCH_TOKENS ?? 400);
  const targetRows = Math.round(pmxtRowsPerDay * scale);
  const dir = mkdtempSync(join(tmpdir(), 'archive-bench-'));
  let now = dayStart;
  const archive = await PolymarketArchive.open({ dir, now: () => now, flushIntervalMs: 3_600_000 });
  try {
    const random = seeded(42);
    const levels = (around: number, side: 1 | -1) =>
      Array.from({ length: 15 }, (_, index) => ({
        price: (Math.round((around + side * (index + 1) * 0.01) * 1000) / 1000).toFixed(3),
        size: String(Math.round(random() * 5000)),
      }));
    // Frames are built ahead of the clock so the measured time is only reading and recording them.
    const frames: { text: string; at: number }[] = [];
    let rows = 0;
    let messages = 0;
    let ingestMs = 0;
    let rollMs = 0;
    const step = (24 * hourMs) / (targetRows / 1.9);
    let time = dayStart;
    const record = async () => {
      const started = performance.now();
      for (const frame of frames) {
        now = frame.at;
        const parsed = readMarketFrame(frame.text, frame.at);
        archive.append(parsed, { text: frame.text, receivedAt: frame.at });
        rows += parsed.length;
      }
      archive.flush();
      messages += frames.length;
      frames.length = 0;
      ingestMs += performance.now() - started;
      const rolling = performance.now();
      await archive.rollDue();
      rollMs += performance.now() - rolling;
    };
    // Every token starts with a book, as the first frame after subscribing carries them all.
    for (let token = 0; token < tokens; token += 1) {
      frames.push({ at: time, text: JSON.stringify(bookMessage(token, time, levels)) });
    }
    while (rows + frames.length * 1.9 < targetRows) {
      time += step * (0.5 + random());
      const pair = Math.floor(random() * random() * (tokens / 2)); // a few markets are far busier than the rest
      const kind = random();
      let message: object;
      if (kind < 0.9) message = priceChange(pair, time, random);
      else if (kind < 0.95) message = bookMessage(pair * 2 + (kind < 0.925 ? 0 : 1), time, levels);
      else if (kind < 0.999)
        message = {
          event_type: 'last_trade_price',
          asset_id: tokenId(pair * 2),
          market: marketId(pair),
          price: (0.3 + random() * 0.4).toFixed(3),
          size: String(Math.round(random() * 100)),
          side: 'BUY',
          fee_rate_bps: '0',
          timestamp: String(Math.round(time)),
          transaction_hash: `0x${'ab'.repeat(32)}`,
        };
      else
        message = {
          event_type: 'tick_size_change',
          asset_id: tokenId(pair * 2),
          market: marketId(pair),
          old_tick_size: '0.01',
          new_tick_size: '0.001',
          timestamp: String(Math.round(time)),
        };
      frames.push({ at: Math.round(time) + 40, text: JSON.stringify(message) });
      if (frames.length >= 20_000) await record();
    }
    await record();
    now = dayStart + 25 * hourMs;
    const rolling = performance.now();
    await archive.rollDue();
    rollMs += performance.now() - rolling;

    const files = readdirSync(join(dir, 'files')).map((name) => statSync(join(dir, 'files', name)).size);
    const checkpoints = readdirSync(join(dir, 'index'))
      .filter((name) => name.endsWith('.parquet'))
      .map((name) => statSync(join(dir, 'index', name)).size);
    const parquetBytes = files.reduce((sum, size) => sum + size, 0);
    const checkpointBytes = checkpoints.reduce((sum, size) => sum + size, 0);

    // A fresh reader, as the gateway opens the archive: nothing cached.
    const reader = await PolymarketArchive.open({ dir, mode: 'read' });
    const bookAtTimes: number[] = [];
    for (let query = 0; query < 500; query += 1) {
      const token = Math.floor(random() * tokens);
      const since = dayStart + Math.floor(random() * 24 * hourMs);
      const started = performance.now();
      await reader.bookAt(tokenId(token), since);
      bookAtTimes.push(performance.now() - started);
    }
    const rangeTimes: number[] = [];
    for (let query = 0; query < 20; query += 1) {
      // The busiest markets, so a range really holds 1000 books.
      const token = Math.floor(random() * 4);
      const since = dayStart + Math.floor(random() * 12 * hourMs);
      const started = performance.now();
      const books = await reader.booksBetween(tokenId(token), { since, until: since + 12 * hourMs, limit: 1000 });
      rangeTimes.push(performance.now() - started);
      if (books.length < 1000) process.stdout.write(`(a range returned ${books.length} books: the scale is too small for full ranges)\n`);
    }
    await reader.close();

    const figures: ArchiveFigures = {
      scale,
      tokens,
      messages,
      rows,
      ingestMessagesPerSecond: Math.round(messages / (ingestMs / 1000)),
      rollSeconds: round(rollMs / 1000),
      bookAtP50Ms: round(percentile(bookAtTimes, 0.5)),
      bookAtP95Ms: round(percentile(bookAtTimes, 0.95)),
      range1000P50Ms: round(percentile(rangeTimes, 0.5)),
      range1000P95Ms: round(percentile(rangeTimes, 0.95)),
      parquetBytesPerMillionMessages: Math.round((parquetBytes / messages) * 1e6),
      parquetBytesPerRow: round(parquetBytes / rows),
      checkpointBytesPerMillionMessages: Math.round((checkpointBytes / messages) * 1e6),
    };
    const summary = [
      `Synthetic day: ${messages} messages (${rows} rows) over ${tokens} tokens, ${scale} of pmxt's ~${pmxtRowsPerDay / 1e6} M rows a day.`,
      `| figure | value | goal |`,
      `|---|---|---|`,
      `| ingest (parse + journal, one core) | ${figures.ingestMessagesPerSecond} messages/s | ≥ 50,000 |`,
      `| rolling 24 hours into Parquet | ${figures.rollSeconds} s | — |`,
      `| book at since, p50 / p95 (cold reader) | ${figures.bookAtP50Ms} / ${figures.bookAtP95Ms} ms | p95 ≤ 10 ms |`,
      `| 1000-book range, p50 / p95 | ${figures.range1000P50Ms} / ${figures.range1000P95Ms} ms | ≤ 250 ms |`,
      `| Parquet bytes per million messages | ${figures.parquetBytesPerMillionMessages} (${figures.parquetBytesPerRow} B/row; pmxt v1 ≈ 20 B/row) | — |`,
      `| checkpoint bytes per million messages | ${figures.checkpointBytesPerMillionMessages} | — |`,
    ].join('\n');
    return { summary, details: figures };
  } finally {
    await archive.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

function tokenId(index: number): string {
  return `${7_000_000_000 + index}${'1'.repeat(66)}`;
}

function marketId(pair: number): string {
  return `0x${pair.toString(16).padStart(64, '0')}`;
}

function bookMessage(token: number, time: number, levels: (around: number, side: 1 | -1) => { price: string; size: string }[]) {
  return {
    event_type: 'book',
    asset_id: tokenId(token),
    market: marketId(Math.floor(token / 2)),
    timestamp: String(Math.round(time)),
    hash: 'f'.repeat(40),
    bids: levels(0.5, -1).reverse(),
    asks: levels(0.5, 1).reverse(),
  };
}

function priceChange(pair: number, time: number, random: () => number) {
  const price = 0.3 + Math.round(random() * 400) / 1000;
  const size = random() < 0.2 ? '0' : String(Math.round(random() * 2000));
  return {
    event_type: 'price_change',
    market: marketId(pair),
    timestamp: String(Math.round(time)),
    price_changes: [
      { asset_id: tokenId(pair * 2), price: price.toFixed(3), size, side: 'BUY', hash: 'a'.repeat(40), best_bid: price.toFixed(3), best_ask: '0.71' },
      {
        asset_id: tokenId(pair * 2 + 1),
        price: (1 - price).toFixed(3),
        size,
        side: 'SELL',
        hash: 'b'.repeat(40),
        best_bid: '0.29',
        best_ask: (1 - price).toFixed(3),
      },
    ],
  };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A small deterministic generator, so every run builds the same day. */
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
