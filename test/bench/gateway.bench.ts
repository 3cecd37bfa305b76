import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { load } from './load.js';
import type { LoadFigures, LoadTarget } from './load.js';
import { gatewayNodeOptions, startServer } from './processes.js';

const apiKey = 'bench-key-0123456789abcdef';

export interface ComparedFigures {
  target: LoadFigures;
  ceiling: LoadFigures;
  /** Gateway requests per second as a share of the ceiling's. */
  ratio: number;
  /** The same target with one connection: the time a request takes when nothing queues. */
  unloaded?: LoadFigures;
}

/**
 * The pass-through on the mock venue against a bare node:http server that
 * answers the same bytes: the order book by GET, and 20 events by POST args.
 */
export async function benchGateway(): Promise<ComparedFigures[]> {
  const results: ComparedFigures[] = [];
  for (const sweep of [true, false]) {
    const gateway = await startServer('gateway-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_SWEEP: sweep ? '1' : '0' }, gatewayNodeOptions);
    const base = `http://127.0.0.1:${gateway.port}`;
    const headers = { authorization: `Bearer ${apiKey}` };
    try {
      const markets = await json(`${base}/api/mock/fetchMarkets?limit=1`, headers);
      const outcomeId = (markets as { data: Array<{ outcomes: Array<{ outcomeId: string }> }> }).data[0]!.outcomes[0]!.outcomeId;
      const events: LoadTarget = {
        name: `POST /api/mock/fetchEvents {"args":[{"limit":20}]} (${sweep ? 'catalog-served' : 'live from the venue'})`,
        url: `${base}/api/mock/fetchEvents`,
        method: 'POST',
        body: '{"args":[{"limit":20}]}',
        headers,
      };
      const book: LoadTarget = { name: 'GET /api/mock/fetchOrderBook?outcomeId=…', url: `${base}/api/mock/fetchOrderBook?outcomeId=${outcomeId}`, headers };
      for (const target of sweep ? [book, events] : [events]) results.push(await compared(target));
    } finally {
      await gateway.stop();
    }
  }
  return results;
}

/** One target, then a bare node:http server answering its bytes. */
async function compared(target: LoadTarget): Promise<ComparedFigures> {
  const bytes = await raw(target);
  const file = join(mkdtempSync(join(tmpdir(), 'predgate-ceiling-')), 'body.json');
  writeFileSync(file, bytes);
  const measured = await load(target);
  const unloaded = await load(target, Math.max(3, Number(process.env.BENCH_SECONDS ?? 10) / 2), 1);
  const ceilingServer = await startServer('ceiling-server.ts', [file]);
  try {
    const ceiling = await load({ ...target, name: `node:http, same ${bytes.length} bytes`, url: `http://127.0.0.1:${ceilingServer.port}/` });
    return { target: measured, ceiling, ratio: Math.round((measured.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000, unloaded };
  } finally {
    await ceilingServer.stop();
  }
}

async function raw(target: LoadTarget): Promise<Buffer> {
  const answer = await request(target.url, {
    method: target.method ?? 'GET',
    body: target.body,
    headers: { 'content-type': 'application/json', ...target.headers },
  });
  if (answer.statusCode !== 200) throw new Error(`${target.name} answered ${answer.statusCode}`);
  return Buffer.from(await answer.body.arrayBuffer());
}

async function json(url: string, headers: Record<string, string>): Promise<unknown> {
  const answer = await request(url, { headers });
  return answer.body.json();
}
