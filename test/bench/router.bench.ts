import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { LoadTarget } from './load.js';
import type { SettledMemory } from './memory.js';
import { gatewayNodeOptions, runScript, startServer } from './processes.js';
import type { Started } from './processes.js';
import { goals, routerReport } from './router-report.js';
import { pmxtToken, sideBySide, startPmxt } from './side-by-side.js';
import type { SideBySide } from './side-by-side.js';

const apiKey = 'bench-key-0123456789abcdef';
const auth = { authorization: `Bearer ${apiKey}` };
// As real clients send it: the gateway then answers compressed, and the baselines send the same compressed bytes.
const compressed = { 'accept-encoding': 'gzip, deflate, br' };
// Room for the 300,000-event catalog, whose heap outgrows Node's default limit; ingestion runs as the gateway it stands for.
const nodeOptions = ['--expose-gc', '--max-old-space-size=12288', ...gatewayNodeOptions];

export interface IngestFigures {
  events: number;
  markets: number;
  outcomes: number;
  generationSeconds: number;
  sweepSeconds: number;
  /** Time spent inside the fake venue's fetchEvents, taken out of `eventsPerSecond`. */
  venueSeconds: number;
  eventsPerSecond: number;
  /** CPU time (user and system) of the sweep and of the fake venue within it, and events over their difference. */
  sweepCpuSeconds: number;
  venueCpuSeconds: number;
  eventsPerCpuSecond: number;
  /** The ingesting process after the sweep, its generator's catalog included. */
  memory: SettledMemory;
}

export interface ServeFigures {
  /** createApp opening the swept data directory until the server listens. */
  startSeconds: number;
  indexedSeconds: number;
  /** Until every event's gzip pieces (Router and pass-through views) are made in the background; memory is measured then. */
  piecesSeconds: number;
  /** The catalog's files on disk, which the events' bytes are read from. */
  catalogFileBytes: number;
  memory: SettledMemory;
}

export interface RouterPath extends SideBySide {
  /** The same for every catalog size, so sizes can be compared path by path. */
  path: string;
  kind: 'router' | 'catalog-served';
}

export interface SizeRun {
  events: number;
  /** The `q` word, matching about 1% of the open events. */
  query: { word: string; share: number };
  ingest: IngestFigures;
  serve: ServeFigures;
  paths: RouterPath[];
}

interface Path {
  path: string;
  kind: RouterPath['kind'];
  target: LoadTarget;
  pmxt?: LoadTarget;
}

/**
 * The Router and the catalog-served pass-through over an embedded catalog of
 * each of BENCH_SIZES mock events (default 100,000 and 300,000): ingestion
 * in one process, then a gateway started from its data directory in another,
 * every path against that one gateway beside bare hapi, bare node:http and
 * pmxt-core's sidecar (started once for all sizes).
 */
export async function benchRouter(): Promise<{ summary: string; details: object }> {
  const sizes = (process.env.BENCH_SIZES ?? '100000,300000').split(',').map(Number);
  const pmxt = await startPmxt();
  try {
    const pmxtPaths = await pmxtCalls(`http://127.0.0.1:${pmxt.port}`);
    const runs: SizeRun[] = [];
    // The first size's ~1% word is kept for the others, so each size runs the same query.
    for (const events of sizes) runs.push(await benchSize(events, pmxtPaths, runs[0]?.query.word));
    return { summary: routerReport(runs), details: { goals: goals(runs), sizes: runs } };
  } finally {
    await pmxt.stop();
  }
}

async function benchSize(events: number, pmxt: PmxtCalls, word: string | undefined): Promise<SizeRun> {
  process.stdout.write(`${events} events: generating and sweeping\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'predgate-bench-router-'));
  try {
    const ingest = JSON.parse(await runScript('router-ingest.ts', { BENCH_EVENTS: String(events), BENCH_DATA_DIR: dataDir }, nodeOptions)) as IngestFigures;
    process.stdout.write(`${events} events: serving\n`);
    const gateway = await startServer('router-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_DATA_DIR: dataDir }, nodeOptions);
    try {
      const serve = JSON.parse(/stats (.*)/.exec(gateway.output)![1]!) as ServeFigures;
      const base = `http://127.0.0.1:${gateway.port}`;
      const query = word ? { word, share: await share(base, word) } : await wordMatchingOnePercent(base);
      const paths = await gatewayPaths(base, pmxt, query);
      await assertCatalogServed(gateway, paths);
      const figures: RouterPath[] = [];
      for (const path of paths) {
        process.stdout.write(`${events} events: ${path.target.name}\n`);
        figures.push({ path: path.path, kind: path.kind, ...(await sideBySide(path.target, path.pmxt)) });
      }
      return { events, query, ingest, serve, paths: figures };
    } finally {
      await gateway.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The five Router queries and the four catalog-served pass-through calls, with ids taken from the catalog. */
async function gatewayPaths(base: string, pmxt: PmxtCalls, query: SizeRun['query']): Promise<Path[]> {
  const get = (name: string, path: string): LoadTarget => ({ name, url: `${base}${path}`, headers: { ...auth, ...compressed } });
  const post = (method: string, args: unknown): LoadTarget => ({
    name: `POST /api/mock/${method} ${JSON.stringify({ args })}`,
    url: `${base}/api/mock/${method}`,
    method: 'POST',
    body: JSON.stringify({ args }),
    headers: { ...auth, ...compressed },
  });
  const [routerEvent] = (await json(`${base}/v0/events?limit=1`)).data as Array<{ id: string }>;
  const [venueEvent] = (await json(`${base}/api/mock/fetchEvents?limit=1`)).data as Array<{ id: string }>;
  const [venueMarket] = (await json(`${base}/api/mock/fetchMarkets?limit=1`)).data as Array<{ marketId: string }>;
  return [
    { path: 'GET /v0/events', kind: 'router', target: get('GET /v0/events', '/v0/events') },
    {
      path: 'GET /v0/events?q={~1% word}',
      kind: 'router',
      target: get(`GET /v0/events?q=${query.word} (${query.share}% of events)`, `/v0/events?q=${encodeURIComponent(query.word)}`),
    },
    { path: 'GET /v0/events?category=Economics', kind: 'router', target: get('GET /v0/events?category=Economics', '/v0/events?category=Economics') },
    { path: 'GET /v0/events?offset=5000', kind: 'router', target: get('GET /v0/events?offset=5000', '/v0/events?offset=5000') },
    { path: 'GET /v0/events/{id}', kind: 'router', target: get('GET /v0/events/{id}', `/v0/events/${routerEvent!.id}`) },
    { path: 'POST /api/mock/fetchEvents', kind: 'catalog-served', target: post('fetchEvents', [{ limit: 20 }]), pmxt: pmxt.fetchEvents },
    { path: 'POST /api/mock/fetchEvent', kind: 'catalog-served', target: post('fetchEvent', [{ eventId: venueEvent!.id }]), pmxt: pmxt.fetchEvent },
    { path: 'POST /api/mock/fetchMarkets', kind: 'catalog-served', target: post('fetchMarkets', [{ limit: 20 }]), pmxt: pmxt.fetchMarkets },
    {
      path: 'POST /api/mock/fetchMarket',
      kind: 'catalog-served',
      target: post('fetchMarket', [{ marketId: venueMarket!.marketId }]),
      pmxt: pmxt.fetchMarket,
    },
  ];
}

type PmxtCalls = Record<'fetchEvents' | 'fetchEvent' | 'fetchMarkets' | 'fetchMarket', LoadTarget>;

/** The same four calls on pmxt-core's own mock venue, which has them all (fetchEvent and fetchMarket by id, from its lists). */
async function pmxtCalls(base: string): Promise<PmxtCalls> {
  const call = (method: string, args: unknown): LoadTarget => ({
    name: `pmxt-core POST /api/mock/${method}`,
    url: `${base}/api/mock/${method}`,
    method: 'POST',
    body: JSON.stringify({ args }),
    headers: { 'x-pmxt-access-token': pmxtToken, ...compressed },
  });
  const first = async (method: string) => {
    const answer = await request(`${base}/api/mock/${method}`, {
      method: 'POST',
      body: '{"args":[{"limit":1}]}',
      headers: { 'content-type': 'application/json', 'x-pmxt-access-token': pmxtToken },
    });
    return ((await answer.body.json()) as { data: Array<{ id?: string; marketId?: string }> }).data[0]!;
  };
  return {
    fetchEvents: call('fetchEvents', [{ limit: 20 }]),
    fetchEvent: call('fetchEvent', [{ eventId: (await first('fetchEvents')).id }]),
    fetchMarkets: call('fetchMarkets', [{ limit: 20 }]),
    fetchMarket: call('fetchMarket', [{ marketId: (await first('fetchMarkets')).marketId }]),
  };
}

/**
 * Each pass-through call once, then the gateway's own count of catalog answers: a call that went to the live mock
 * venue instead (a stale catalog, a parameter the catalog cannot answer) would measure the wrong thing.
 */
async function assertCatalogServed(gateway: Started, paths: Path[]): Promise<void> {
  const base = `http://127.0.0.1:${gateway.port}`;
  const served = paths.filter((path) => path.kind === 'catalog-served');
  for (const { target } of served) {
    const answer = await request(target.url, { method: target.method, body: target.body, headers: { 'content-type': 'application/json', ...auth } });
    await answer.body.dump();
  }
  const metrics = await (await request(`${base}/metrics`, { headers: auth })).body.text();
  for (const { path } of served) {
    const method = path.split('/').pop()!;
    const counted = new RegExp(`predgate_catalog_answers_total\\{[^}]*method="${method}"[^}]*\\} (\\d+)`).exec(metrics);
    if (!counted || Number(counted[1]) < 1) throw new Error(`${path} was not answered from the catalog`);
  }
}

/** The candidate word whose matches are closest to 1% of the open events. */
async function wordMatchingOnePercent(base: string): Promise<{ word: string; share: number }> {
  const candidates = ['freedonia', 'genovia', 'latveria', 'solana', 'cardano', 'otters', 'helio', 'starfall', 'mars sample', 'foldable'];
  let best = { word: candidates[0]!, share: Infinity };
  for (const word of candidates) {
    const found = { word, share: await share(base, word) };
    if (Math.abs(found.share - 1) < Math.abs(best.share - 1)) best = found;
  }
  return best;
}

/** The percentage of open events a `q` word matches. */
async function share(base: string, word: string): Promise<number> {
  const total = async (path: string) => ((await json(`${base}${path}`)).meta as { total: number }).total;
  return Math.round(((await total(`/v0/events?q=${encodeURIComponent(word)}&limit=1`)) / (await total('/v0/events?limit=1'))) * 10_000) / 100;
}

async function json(url: string): Promise<Record<string, unknown>> {
  const answer = await request(url, { headers: auth });
  if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  return (await answer.body.json()) as Record<string, unknown>;
}
