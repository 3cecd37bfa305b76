import type { Query } from '../api/client.js';
import { collectPages } from '../api/paging.js';
import type { KalshiContext } from '../context.js';
import { unixSeconds } from '../normalize/numbers.js';

export interface HistoryRequest<T> {
  /** Key of the list in both answers (`orders`, `fills`). */
  listKey: string;
  livePath: string;
  /** Records older than Kalshi's historical cutoff (about three months) only come from here. */
  historicalPath: string;
  ticker?: string;
  since?: Date;
  until?: Date;
  wanted: number;
  /** Kalshi's cursor of the live list: it continues that list alone, so the historical one is not read. */
  cursor?: string;
  pageSize: number;
  idOf: (record: T) => string | undefined;
  timeOf: (record: T) => number | undefined;
}

/**
 * An account history merged from the live endpoint and its `/historical`
 * twin: records de-duplicated on their id, newest first, at most `wanted`.
 * The historical endpoints take no lower time bound, so `since` is applied
 * here to what they return.
 */
export async function liveAndHistorical<T>(ctx: KalshiContext, request: HistoryRequest<T>): Promise<T[]> {
  const since = request.since?.getTime();
  const read = (path: string, query: Query, firstCursor?: string) =>
    collectPages<T>(
      request.listKey,
      (cursor, remaining) =>
        ctx.api.account('GET', path, {
          query: { ...query, limit: Math.min(request.pageSize, remaining), cursor: cursor ?? firstCursor },
        }),
      request.wanted,
      ctx.config.maxPages,
      { venue: ctx.origin.exchange, endpoint: `GET ${path}` },
    );
  const bounds = { ticker: request.ticker, max_ts: unixSeconds(request.until) };
  const [live, historical] = await Promise.all([
    read(request.livePath, { ...bounds, min_ts: unixSeconds(request.since) }, request.cursor),
    request.cursor === undefined ? read(request.historicalPath, bounds) : Promise.resolve([]),
  ]);
  const byId = new Map<string, T>();
  for (const record of [...live, ...historical]) {
    const id = request.idOf(record);
    if (id !== undefined && !byId.has(id)) byId.set(id, record);
  }
  const time = (record: T) => request.timeOf(record) ?? 0;
  return [...byId.values()]
    .filter((record) => since === undefined || time(record) >= since)
    .sort((a, b) => time(b) - time(a))
    .slice(0, request.wanted);
}
