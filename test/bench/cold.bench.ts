import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { gatewayNodeOptions, runScript, startServer } from './processes.js';
import type { Started } from './processes.js';
import { startProxyPair } from './request-path.bench.js';
import type { IngestFigures, ServeFigures } from './router.bench.js';
import { pmxtToken, ratio, startPmxt } from './side-by-side.js';
import { requireWrk, wrk, writeRequests } from './wrk.js';
import type { WrkFigures, WrkRequest } from './wrk.js';

/**
 * The gateway as many different clients call it (issue 33): every target
 * cycles through a file of requests drawn from the catalog (random event,
 * market and outcome ids, words from titles, offsets), so each request asks
 * something the ones just before did not. wrk sends them (it never decodes a
 * body), 32 connections, without and with `accept-encoding: gzip, deflate,
 * br`, at each of BENCH_SIZES mock events (20,000 and 100,000 by default).
 * Beside each gateway figure, measured right after it: pmxt-core 2.41's
 * sidecar on the same calls of its own mock venue (catalog-served and live
 * calls), or a bare node:http server sending a sample of the gateway's own
 * answers to those requests, their sizes and encodings (the Router). Then the
 * first request of each file alone, repeated: what the answer cache gives.
 * Last, a live call at one connection through the gateway and straight to a
 * local fake venue.
 */

const apiKey = 'bench-key-0123456789abcdef';
const compressed = 'gzip, deflate, br';
const connections = 32;
/** Requests in a target's file at most: more than a run sends, so a run meets few repeats where the catalog has that many. */
const maxRequests = 100_000;
/** The gateway's answers the node:http ceiling sends, in turn. */
const ceilingSamples = 64;
// Room for the 100,000-event catalog and its generator; ingestion runs as the gateway it stands for.
const nodeOptions = ['--expose-gc', '--max-old-space-size=12288', ...gatewayNodeOptions];

type Kind = 'catalog-served' | 'live' | 'router';
type Encoding = 'identity' | typeof compressed;

interface Target {
  name: string;
  kind: Kind;
  requests: WrkRequest[];
  /** pmxt-core's sidecar: the same call on its mock venue. */
  pmxt?: WrkRequest[];
}

export interface ColdRow {
  events: number;
  target: string;
  kind: Kind;
  encoding: Encoding;
  distinctRequests: number;
  gateway: WrkFigures;
  reference: { name: string; figures: WrkFigures };
  /** Gateway req/s over the reference's. */
  ofReference: number;
  /** The first request of the file, alone, repeated: the answer cache. */
  cache: WrkFigures;
}

export interface ColdSize {
  events: number;
  ingest: IngestFigures;
  serve: ServeFigures;
  rows: ColdRow[];
  loadBefore: string;
  loadAfter: string;
}

export interface ProxyRow {
  venue: string;
  direct: WrkFigures;
  gateway: WrkFigures;
  addedP50: number;
  /** A bare node:http + undici proxy in front of the same venue: what any Node proxy adds here. */
  bareProxy: WrkFigures;
  bareProxyAddedP50: number;
}

interface CatalogIds {
  eventIds: string[];
  routerIds: string[];
  marketIds: string[];
  liveOutcomeIds: string[];
  activeEvents: number;
  tradingMarkets: number;
  words: string[];
}

export async function benchCold(): Promise<{ summary: string; details: object }> {
  requireWrk();
  const sizes = (process.env.BENCH_SIZES ?? '20000,100000').split(',').map(Number);
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'predgate-bench-cold-'));
  const runs: ColdSize[] = [];
  let proxies: ProxyRow[];
  let pmxtCatalog!: PmxtRequests['catalog'];
  try {
    const pmxt = await startPmxt();
    try {
      const pmxtTargets = await pmxtRequests(`http://127.0.0.1:${pmxt.port}`);
      pmxtCatalog = pmxtTargets.catalog;
      for (const events of sizes) runs.push(await benchSize(events, pmxt, pmxtTargets, join(work, String(events))));
    } finally {
      await pmxt.stop();
    }
    proxies = await measureProxies(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const minutes = (performance.now() - started) / 60_000;
  return {
    summary: coldReport(runs, proxies, pmxtCatalog, minutes),
    details: { settings: settings(), pmxtCatalog, goals: coldGoals(runs, proxies), sizes: runs, proxies },
  };
}

function settings() {
  return {
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 1),
    connections,
  };
}

async function benchSize(events: number, pmxt: Started, pmxtTargets: PmxtRequests, folder: string): Promise<ColdSize> {
  mkdirSync(folder, { recursive: true });
  const loadBefore = loadAverage();
  const dataDir = join(folder, 'data');
  const idsFile = join(folder, 'ids.json');
  progress(`${events} events: generating and sweeping`);
  const ingest = JSON.parse(
    await runScript('router-ingest.ts', { BENCH_EVENTS: String(events), BENCH_DATA_DIR: dataDir, BENCH_IDS_FILE: idsFile }, nodeOptions),
  ) as IngestFigures;
  const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as CatalogIds;
  progress(`${events} events: serving`);
  const gateway = await startServer('router-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_DATA_DIR: dataDir }, nodeOptions);
  const rows: ColdRow[] = [];
  try {
    const serve = JSON.parse(/stats (.*)/.exec(gateway.output)![1]!) as ServeFigures;
    const origin = `http://127.0.0.1:${gateway.port}`;
    const targets = await gatewayTargets(origin, ids, pmxtTargets);
    for (const target of targets) {
      const file = join(folder, `${rows.length}.requests`);
      writeRequests(file, target.requests);
      const first = join(folder, `${rows.length}.first`);
      writeRequests(first, target.requests.slice(0, 1));
      const pmxtFile = join(folder, `${rows.length}.pmxt`);
      if (target.pmxt) writeRequests(pmxtFile, target.pmxt);
      for (const encoding of ['identity', compressed] as const) {
        progress(`${events} events: ${target.name} (${encoding})`);
        const headers = { authorization: `Bearer ${apiKey}`, ...(encoding === 'identity' ? {} : { 'accept-encoding': encoding }) };
        const measured = await measure(origin, file, headers);
        let reference: ColdRow['reference'];
        if (target.pmxt) {
          reference = {
            name: 'pmxt-core',
            figures: await measure(`http://127.0.0.1:${pmxt.port}`, pmxtFile, {
              'x-pmxt-access-token': pmxtToken,
              ...(encoding === 'identity' ? {} : { 'accept-encoding': encoding }),
            }),
          };
        } else {
          const samples = join(folder, `${rows.length}-${encoding === 'identity' ? 'identity' : 'compressed'}-samples`);
          await sampleAnswers(origin, target.requests, headers, samples);
          const ceiling = await startServer('ceiling-server.ts', [samples]);
          try {
            reference = { name: 'node:http', figures: await measure(`http://127.0.0.1:${ceiling.port}`, file, {}) };
          } finally {
            await ceiling.stop();
          }
        }
        const cache = await measure(origin, first, headers);
        rows.push({
          events,
          target: target.name,
          kind: target.kind,
          encoding,
          distinctRequests: target.requests.length,
          gateway: measured,
          reference,
          ofReference: ratio(measured.requestsPerSecond, reference.figures.requestsPerSecond),
          cache,
        });
      }
    }
    await assertCatalogServed(origin, rows);
    return { events, ingest, serve, rows, loadBefore, loadAfter: loadAverage() };
  } finally {
    await gateway.stop();
  }
}

/** A wrk run after the same load unmeasured, so the server meets it with its code compiled and its caches warm. */
async function measure(origin: string, file: string, headers: Record<string, string>): Promise<WrkFigures> {
  const { seconds, warmupSeconds } = settings();
  if (warmupSeconds > 0) await wrk(origin, file, headers, warmupSeconds, connections);
  return wrk(origin, file, headers, seconds, connections);
}

/** The eight targets at this catalog size, each with its requests drawn at random from the catalog. */
async function gatewayTargets(origin: string, ids: CatalogIds, pmxt: PmxtRequests): Promise<Target[]> {
  const routerTotal = (await getJson(origin, '/v0/events?limit=1')).meta.total;
  return [
    {
      name: 'fetchEvent by random id',
      kind: 'catalog-served',
      requests: shuffled(ids.eventIds).map((eventId) => post('fetchEvent', { eventId })),
      pmxt: pmxt.fetchEvent,
    },
    {
      name: 'fetchMarket by random id',
      kind: 'catalog-served',
      requests: shuffled(ids.marketIds).map((marketId) => post('fetchMarket', { marketId })),
      pmxt: pmxt.fetchMarket,
    },
    {
      name: 'fetchEvents limit 10, random offset',
      kind: 'catalog-served',
      requests: randomOffsets(ids.activeEvents - 10).map((offset) => post('fetchEvents', { limit: 10, offset })),
      pmxt: pmxt.fetchEvents,
    },
    {
      name: 'fetchMarkets limit 10, random offset',
      kind: 'catalog-served',
      requests: randomOffsets(ids.tradingMarkets - 10).map((offset) => post('fetchMarkets', { limit: 10, offset })),
      pmxt: pmxt.fetchMarkets,
    },
    {
      name: 'live fetchOrderBook by random outcome',
      kind: 'live',
      // As pmxt clients ask it: a POST whose arguments are the outcome id.
      requests: shuffled(ids.liveOutcomeIds).map((outcomeId) => postArgs('fetchOrderBook', [outcomeId])),
      pmxt: pmxt.fetchOrderBook,
    },
    {
      name: 'Router /v0/events/{random id}',
      kind: 'router',
      requests: shuffled(ids.routerIds).map((id) => ({ method: 'GET', path: `/v0/events/${id}` })),
    },
    { name: 'Router ?q={random word}&limit=20&offset={random}', kind: 'router', requests: await wordRequests(origin, ids.words) },
    {
      name: 'Router ?limit=50&offset={random}',
      kind: 'router',
      requests: randomOffsets(routerTotal - 50).map((offset) => ({ method: 'GET', path: `/v0/events?limit=50&offset=${offset}` })),
    },
  ];
}

/** `q` searches: title words that match open events, each at a random offset within its matches. */
async function wordRequests(origin: string, words: string[]): Promise<WrkRequest[]> {
  const requests = new Map<string, WrkRequest>();
  for (const word of shuffled(words).slice(0, 200)) {
    const total = (await getJson(origin, `/v0/events?q=${encodeURIComponent(word)}&limit=1`)).meta.total;
    if (total === 0) continue;
    for (const offset of randomOffsets(total - 20, Math.ceil(maxRequests / 200))) {
      const path = `/v0/events?q=${encodeURIComponent(word)}&limit=20&offset=${offset}`;
      requests.set(path, { method: 'GET', path });
    }
  }
  return shuffled([...requests.values()]);
}

type PmxtRequests = Record<'fetchEvent' | 'fetchMarket' | 'fetchEvents' | 'fetchMarkets' | 'fetchOrderBook', WrkRequest[]> & {
  catalog: { events: number; markets: number };
};

/** The same calls on pmxt-core's mock venue (its own fixed catalog), with its ids, offsets over its lists. */
async function pmxtRequests(origin: string): Promise<PmxtRequests> {
  const list = async (method: string) => {
    const answer = await request(`${origin}/api/mock/${method}`, {
      method: 'POST',
      body: '{"args":[{}]}',
      headers: { 'content-type': 'application/json', 'x-pmxt-access-token': pmxtToken },
    });
    return ((await answer.body.json()) as { data: Array<{ id: string; marketId: string; outcomes: Array<{ outcomeId: string }> }> }).data;
  };
  const events = await list('fetchEvents');
  const markets = await list('fetchMarkets');
  const offsets = (count: number) => Array.from({ length: Math.max(1, count - 10 + 1) }, (_, offset) => offset);
  return {
    catalog: { events: events.length, markets: markets.length },
    fetchEvent: events.map((event) => post('fetchEvent', { eventId: event.id })),
    fetchMarket: markets.map((market) => post('fetchMarket', { marketId: market.marketId })),
    fetchEvents: offsets(events.length).map((offset) => post('fetchEvents', { limit: 10, offset })),
    fetchMarkets: offsets(markets.length).map((offset) => post('fetchMarkets', { limit: 10, offset })),
    fetchOrderBook: markets.flatMap((market) => market.outcomes.map((outcome) => postArgs('fetchOrderBook', [outcome.outcomeId]))),
  };
}

/** The gateway's answers to a sample of the requests, as sent (encoding in each file's name), for the node:http ceiling. */
async function sampleAnswers(origin: string, requests: readonly WrkRequest[], headers: Record<string, string>, folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const step = Math.max(1, Math.floor(requests.length / ceilingSamples));
  for (let index = 0, sample = 0; index < requests.length && sample < ceilingSamples; index += step, sample += 1) {
    const { method, path, body } = requests[index]!;
    const answer = await request(`${origin}${path}`, { method, body, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    if (answer.statusCode !== 200) throw new Error(`${path} answered ${answer.statusCode}: ${bytes.subarray(0, 200).toString()}`);
    const encoding = (answer.headers['content-encoding'] as string | undefined) ?? 'identity';
    writeFileSync(join(folder, `${String(sample).padStart(4, '0')}.${encoding}`), bytes);
  }
}

/** Every catalog-served figure must be the catalog's: a call that went to the live mock venue would measure the wrong thing. */
async function assertCatalogServed(origin: string, rows: ColdRow[]): Promise<void> {
  const metrics = await (await request(`${origin}/metrics`, { headers: { authorization: `Bearer ${apiKey}` } })).body.text();
  for (const method of ['fetchEvent', 'fetchMarket', 'fetchEvents', 'fetchMarkets']) {
    const sent = rows.filter((row) => row.kind === 'catalog-served' && row.target.startsWith(`${method} `)).reduce((sum, row) => sum + row.gateway.requests, 0);
    const counted = new RegExp(`predgate_catalog_answers_total\\{[^}]*method="${method}"[^}]*\\} (\\d+)`).exec(metrics);
    if (!counted || Number(counted[1]) < sent) throw new Error(`${method}: ${sent} requests measured, ${counted?.[1] ?? 0} answered from the catalog`);
  }
}

/** A live call at one connection, to the fake venue directly and through the gateway: what the gateway adds to each call. */
async function measureProxies(folder: string): Promise<ProxyRow[]> {
  const pair = await startProxyPair();
  const rows: ProxyRow[] = [];
  try {
    for (const call of pair.calls) {
      progress(`live ${call.venue} fetchOrderBook at one connection`);
      const direct = new URL(call.direct);
      const directFile = join(folder, `${call.venue}.direct`);
      writeRequests(directFile, [{ method: 'GET', path: `${direct.pathname}${direct.search}` }]);
      const throughFile = join(folder, `${call.venue}.through`);
      writeRequests(throughFile, [{ method: 'GET', path: call.through }]);
      const { seconds, warmupSeconds } = settings();
      await wrk(direct.origin, directFile, {}, warmupSeconds + 1, 1);
      const directFigures = await wrk(direct.origin, directFile, {}, seconds, 1);
      await wrk(pair.gatewayOrigin, throughFile, pair.headers, warmupSeconds + 1, 1);
      const gatewayFigures = await wrk(pair.gatewayOrigin, throughFile, pair.headers, seconds, 1);
      if (gatewayFigures.non2xx > 0) throw new Error(`${call.through} answered non-2xx ${gatewayFigures.non2xx} times`);
      const floor = await startServer('proxy-floor-server.ts', [direct.origin]);
      let bareProxy: WrkFigures;
      try {
        const floorOrigin = `http://127.0.0.1:${floor.port}`;
        await wrk(floorOrigin, directFile, {}, warmupSeconds + 1, 1);
        bareProxy = await wrk(floorOrigin, directFile, {}, seconds, 1);
      } finally {
        await floor.stop();
      }
      if (bareProxy.non2xx > 0) throw new Error(`the bare proxy answered non-2xx ${bareProxy.non2xx} times`);
      rows.push({
        venue: call.venue,
        direct: directFigures,
        gateway: gatewayFigures,
        addedP50: round(gatewayFigures.p50 - directFigures.p50),
        bareProxy,
        bareProxyAddedP50: round(bareProxy.p50 - directFigures.p50),
      });
    }
  } finally {
    await pair.stop();
  }
  return rows;
}

interface Goal {
  goal: string;
  measured: string;
  met: boolean;
}

const gibibyte = 2 ** 30;

/** Issue 33's goals, each from the figures of this run. */
export function coldGoals(runs: ColdSize[], proxies: ProxyRow[]): Goal[] {
  const rows = runs.flatMap((run) => run.rows);
  const label = (row: ColdRow) => `${row.target} (${row.encoding}) at ${row.events}`;
  const lowest = (list: ColdRow[], value: (row: ColdRow) => number) => list.reduce((low, row) => (value(row) < value(low) ? row : low), list[0]!);
  const goals: Goal[] = [];
  const against = (kind: Kind, what: string) => {
    const list = rows.filter((row) => row.kind === kind);
    if (list.length === 0) return;
    const worst = lowest(list, (row) => row.ofReference);
    goals.push({ goal: `${what} ≥ 3× pmxt-core req/s`, measured: `lowest ${worst.ofReference}× (${label(worst)})`, met: worst.ofReference >= 3 });
    if (kind === 'catalog-served') {
      const slower = list.filter((row) => row.gateway.p99 >= row.reference.figures.p99);
      goals.push({
        goal: `${what}: p99 below pmxt-core's`,
        measured: slower.length === 0 ? 'every row' : slower.map((row) => `${label(row)} ${row.gateway.p99} vs ${row.reference.figures.p99} ms`).join('; '),
        met: slower.length === 0,
      });
    }
  };
  against('catalog-served', 'catalog-served calls, random ids and offsets');
  against('live', 'live mock fetchOrderBook, random outcomes');
  const router = rows.filter((row) => row.kind === 'router');
  if (router.length > 0) {
    const worst = lowest(router, (row) => row.ofReference);
    goals.push({ goal: 'Router ≥ 0.5 of the node:http ceiling', measured: `lowest ${worst.ofReference} (${label(worst)})`, met: worst.ofReference >= 0.5 });
    const slowest = router.reduce((high, row) => (row.gateway.p99 > high.gateway.p99 ? row : high), router[0]!);
    goals.push({ goal: 'Router p99 ≤ 20 ms', measured: `highest ${slowest.gateway.p99} ms (${label(slowest)})`, met: slowest.gateway.p99 <= 20 });
  }
  const shares = rows
    .filter((row) => row.encoding === compressed)
    .map((row) => {
      const identity = rows.find((other) => other.events === row.events && other.target === row.target && other.encoding === 'identity')!;
      return { row, share: ratio(row.gateway.requestsPerSecond, identity.gateway.requestsPerSecond) };
    });
  if (shares.length > 0) {
    const worst = shares.reduce((low, share) => (share.share < low.share ? share : low), shares[0]!);
    goals.push({
      goal: 'compressed ≥ 0.7 of identity req/s, every target',
      measured: `lowest ${worst.share} (${worst.row.target} at ${worst.row.events})`,
      met: worst.share >= 0.7,
    });
  }
  const largest = runs.find((run) => run.events === 100_000);
  if (largest) {
    goals.push({
      goal: 'ingestion at 100k ≥ 20,000 events/s',
      measured: `${largest.ingest.eventsPerSecond} events/s`,
      met: largest.ingest.eventsPerSecond >= 20_000,
    });
    goals.push({ goal: 'start from disk at 100k ≤ 5 s', measured: `${fixed(largest.serve.startSeconds)} s`, met: largest.serve.startSeconds <= 5 });
    goals.push({ goal: 'serving RSS at 100k ≤ 1 GiB', measured: `${mib(largest.serve.memory.rss)} MiB`, met: largest.serve.memory.rss <= gibibyte });
  }
  if (proxies.length > 0) {
    const worst = proxies.reduce((high, row) => (row.addedP50 > high.addedP50 ? row : high), proxies[0]!);
    goals.push({
      goal: 'live call: gateway adds ≤ 0.2 ms p50 at one connection',
      measured: `highest +${worst.addedP50} ms (${worst.venue}: ${worst.gateway.p50} vs ${worst.direct.p50} ms direct; a bare node:http + undici proxy adds +${worst.bareProxyAddedP50} ms)`,
      met: worst.addedP50 <= 0.2,
    });
  }
  return goals;
}

function coldReport(runs: ColdSize[], proxies: ProxyRow[], pmxtCatalog: PmxtRequests['catalog'], minutes: number): string {
  const { seconds, warmupSeconds } = settings();
  const share = (row: ColdRow, rows: ColdRow[]) => {
    if (row.encoding === 'identity') return '—';
    const identity = rows.find((other) => other.target === row.target && other.encoding === 'identity');
    return identity ? String(ratio(row.gateway.requestsPerSecond, identity.gateway.requestsPerSecond)) : '—';
  };
  const figures = (f: WrkFigures) => `${f.requestsPerSecond} | ${f.p50} / ${f.p99}`;
  return [
    `wrk 4 (one thread, ${connections} connections; it never decodes a body), ${seconds} s per figure after ${warmupSeconds} s of the same load unmeasured. Each target cycles through its file of requests (from a random line on), drawn at random from the catalog: ids of events, markets and outcomes, words from titles, offsets. Beside each gateway figure, measured right after it: pmxt-core 2.41's sidecar on the same calls of its own mock venue (its fixed catalog of ${pmxtCatalog.events} events and ${pmxtCatalog.markets} markets; it never compresses), or, for the Router, a bare node:http server sending ${ceilingSamples} of the gateway's own answers to those requests in turn (same sizes, same content-encoding). "cache": the first request of the file alone, repeated (answered from the answer cache). The whole run took ${minutes.toFixed(1)} minutes; load average (1, 5, 15 min) is given before and after each size: the machine is shared.`,
    '',
    '## Goals',
    '',
    '| goal | measured | |',
    '|---|---|---|',
    ...coldGoals(runs, proxies).map((goal) => `| ${goal.goal} | ${goal.measured} | ${goal.met ? 'met' : '**missed**'} |`),
    '',
    '## Catalog, ingestion, start and memory',
    '',
    'Ingestion in its own process, then the gateway started from its data directory in another (see `router.bench.ts`). Ingestion events/s: events over the sweep’s time less the time inside the fake venue; per CPU-second: the same over the process’s CPU time (user and system) during the sweep less the venue’s, which a busy shared machine changes less than it changes time.',
    '',
    '| events | ingestion events/s | per CPU-second | start from disk s | lookup maps built s | gzip pieces made s | serving RSS MiB (pieces made) | load before | load after |',
    '|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (run) =>
        `| ${run.events} | ${run.ingest.eventsPerSecond} | ${run.ingest.eventsPerCpuSecond} | ${fixed(run.serve.startSeconds)} | ${fixed(run.serve.indexedSeconds)} | ${fixed(run.serve.piecesSeconds)} | ${mib(run.serve.memory.rss)} | ${run.loadBefore} | ${run.loadAfter} |`,
    ),
    '',
    ...runs.flatMap((run) => [
      `## Varied requests at ${run.events} events`,
      '',
      '| target | encoding | distinct requests | mean bytes | gateway req/s | p50 / p99 ms | non-2xx | reference | reference req/s | p50 / p99 ms | of reference | compressed / identity | cache req/s | cache p50 / p99 ms |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...run.rows.map(
        (row) =>
          `| ${row.target} | ${row.encoding} | ${row.distinctRequests} | ${row.gateway.meanBytes} | ${figures(row.gateway)} | ${row.gateway.non2xx + row.gateway.errors} | ${row.reference.name} | ${figures(row.reference.figures)} | ${row.ofReference} | ${share(row, run.rows)} | ${figures(row.cache)} |`,
      ),
      '',
    ]),
    '## Live call at one connection',
    '',
    'A local fake venue answering recorded books at once, called directly, through the gateway (its Polymarket and Kalshi adapters pointed at it) and through a bare node:http server forwarding each request with undici (no gateway work: the floor any Node proxy meets on this machine), one connection.',
    '',
    '| venue call | direct p50 / p99 ms | through the gateway p50 / p99 ms | added p50 ms | bare proxy p50 / p99 ms | bare proxy added p50 ms |',
    '|---|---|---|---|---|---|',
    ...proxies.map(
      (row) =>
        `| ${row.venue} fetchOrderBook | ${row.direct.p50} / ${row.direct.p99} | ${row.gateway.p50} / ${row.gateway.p99} | ${row.addedP50} | ${row.bareProxy.p50} / ${row.bareProxy.p99} | ${row.bareProxyAddedP50} |`,
    ),
  ].join('\n');
}

async function getJson(origin: string, path: string): Promise<{ meta: { total: number } }> {
  const answer = await request(`${origin}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (answer.statusCode !== 200) throw new Error(`${path} answered ${answer.statusCode}`);
  return (await answer.body.json()) as { meta: { total: number } };
}

/** Up to `count` distinct offsets in [0, last], in random order. */
function randomOffsets(last: number, count = maxRequests): number[] {
  const all = Math.max(0, last) + 1;
  if (all <= count) return shuffled(Array.from({ length: all }, (_, offset) => offset));
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(Math.random() * all));
  return [...chosen];
}

/** A random order of the items, at most `maxRequests` of them. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy.slice(0, maxRequests);
}

function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

function progress(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fixed(seconds: number): string {
  return seconds.toFixed(2);
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** A pass-through call as pmxt clients send it: a POST of its arguments. */
function postArgs(method: string, args: unknown[]): WrkRequest {
  return { method: 'POST', path: `/api/mock/${method}`, body: JSON.stringify({ args }) };
}

/** A call taking one object of parameters. */
function post(method: string, params: object): WrkRequest {
  return postArgs(method, [params]);
}
