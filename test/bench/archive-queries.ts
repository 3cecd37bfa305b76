// The archive bench's read queries, asked of any archive: a published hour
// through a fresh reader, or the open hour in the recording process.
import type { PolymarketArchive } from '../../archive/src/index.js';
import { hour, hourMs, seeded, tokenId } from './archive-hour.js';

export interface ReadFigures {
  sinceP50Ms: number;
  sinceP95Ms: number;
  /** The process's CPU time per `since` (user and system): steadier than wall time on a loaded machine. */
  sinceCpuP50Ms: number;
  sinceCpuP95Ms: number;
  range1000P50Ms: number;
  range1000P95Ms: number;
  rangeBooksReturned: number;
}

/** 1,000 `since` queries of random tokens and moments of the bench's hour, then 20 ranges of the busiest tokens. */
export async function queryFigures(reader: PolymarketArchive, tokens: number): Promise<ReadFigures> {
  const random = seeded(7);
  const sinceTimes: number[] = [];
  const sinceCpu: number[] = [];
  // Random tokens and moments: each reads one checkpoint and the token's rows after it.
  for (let query = 0; query < 1000; query += 1) {
    const token = Math.floor(random() * tokens);
    const since = hour + Math.floor(random() * hourMs);
    const started = performance.now();
    const cpu = process.cpuUsage();
    await reader.bookAt(tokenId(token), since);
    const used = process.cpuUsage(cpu);
    sinceTimes.push(performance.now() - started);
    sinceCpu.push((used.user + used.system) / 1000);
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
  return {
    sinceP50Ms: round(percentile(sinceTimes, 0.5)),
    sinceP95Ms: round(percentile(sinceTimes, 0.95)),
    sinceCpuP50Ms: round(percentile(sinceCpu, 0.5)),
    sinceCpuP95Ms: round(percentile(sinceCpu, 0.95)),
    range1000P50Ms: round(percentile(rangeTimes, 0.5)),
    range1000P95Ms: round(percentile(rangeTimes, 0.95)),
    rangeBooksReturned: Math.round(rangeBooks / rangeTimes.length),
  };
}

export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
