import type { RouterPath, SizeRun } from './router.bench.js';
import { ratio } from './side-by-side.js';
import { turnRounds, warmupSeconds } from './load.js';
import { gatewayNodeOptions } from './processes.js';

/** The router benchmark's markdown: the goals first, each computed from the figures below it. */
export function routerReport(runs: SizeRun[]): string {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  return [
    '## Goals',
    '',
    '| goal | measured | |',
    '|---|---|---|',
    ...goals(runs).map((goal) => `| ${goal.goal} | ${goal.measured} | ${goal.met === undefined ? 'not measured' : goal.met ? 'met' : '**missed**'} |`),
    '',
    '## Catalog, ingestion, start and memory',
    '',
    `Ingestion runs in its own process (generating the catalog, then sweeping it into the data directory); the gateway then starts from that directory in another, so its memory is what it loaded from disk. Both run with the flags \`pnpm start\` gives Node (${gatewayNodeOptions.map((flag) => `\`${flag}\``).join(' ')}). Memory after a forced collection, once the resident size stops falling (V8 returns the freed pages from a background thread); external includes ArrayBuffers. The events’ bytes are not held in memory: the store reads them from its files (snapshot and journal, their size in the last column) through the operating system’s page cache. Ingestion rate: events over sweep time minus the time spent inside the fake venue’s fetchEvents (parsing its page). The gateway serves once the catalog is loaded (start from disk); the market, outcome and slug lookup maps are then built between requests (a lookup needing one first builds it at once), and the paths are measured, and the serving memory taken, after they are.`,
    '',
    '| events | markets | outcomes | generated s | sweep s | of it in the venue s | ingestion events/s | ingest RSS / heap / external (ArrayBuffers) MiB | start from disk s | lookup maps built s | serving RSS / heap / external (ArrayBuffers) MiB | catalog files MiB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      ({ ingest, serve }) =>
        `| ${ingest.events} | ${ingest.markets} | ${ingest.outcomes} | ${fixed(ingest.generationSeconds)} | ${fixed(ingest.sweepSeconds)} | ${fixed(ingest.venueSeconds)} | ${ingest.eventsPerSecond} | ${memory(ingest.memory)} | ${fixed(serve.startSeconds)} | ${fixed(serve.indexedSeconds)} | ${memory(serve.memory)} | ${mib(serve.catalogFileBytes)} |`,
    ),
    '',
    ...runs.flatMap((run) => [
      `## Paths at ${run.events} events`,
      '',
      `autocannon (leaving the bodies it does not read undecoded: see \`load.ts\`), \`accept-encoding: gzip, deflate, br\` on every request, 32 connections for ${seconds} s (one connection: ${Math.max(3, seconds / 2)} s), measured in ${turnRounds} rounds taken in turn with the baselines (each round after the same load for ${warmupSeconds} s unmeasured, the gateway and every baseline alike; a figure pools every response of its rounds), so a ratio compares figures of the same minutes on this shared machine. Beside each gateway figure: a bare hapi route and a bare node:http server sending the gateway’s exact bytes (with its content-encoding), and pmxt-core 2.41’s sidecar on the same call of its own mock venue (catalog-served calls only: the Router has no pmxt-core counterpart). \`q\` word: “${run.query.word}”, ${run.query.share}% of open events.`,
      '',
      '| path | bytes sent | gateway req/s | p50 / p99 ms | 1 conn p50 / p95 / p99 ms | bare hapi req/s (p99 ms) | node:http req/s (p99 ms) | pmxt-core req/s (p99 ms) | of hapi | of pmxt |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...run.paths.map(
        (path) =>
          `| ${path.target} | ${path.bytes}${path.contentEncoding ? ` (${path.contentEncoding})` : ''} | ${path.gateway.requestsPerSecond} | ${path.gateway.p50} / ${path.gateway.p99} | ${path.oneConnection.p50} / ${path.oneConnection.p95} / ${path.oneConnection.p99} | ${path.hapi.requestsPerSecond} (${path.hapi.p99}) | ${path.node.requestsPerSecond} (${path.node.p99}) | ${path.pmxt ? `${path.pmxt.requestsPerSecond} (${path.pmxt.p99})` : '—'} | ${path.ofHapi} | ${path.ofPmxt ?? '—'} |`,
      ),
      '',
    ]),
    ...scalingTable(runs),
  ].join('\n');
}

interface Goal {
  goal: string;
  measured: string;
  /** Undefined when this run did not measure it (a single catalog size has no scaling). */
  met?: boolean;
}

const gibibyte = 2 ** 30;

/** The issue's goals: memory, start and ingestion at the first size, scaling to the last, and every path against its baselines. */
export function goals(runs: SizeRun[]): Goal[] {
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const everyPath = runs.flatMap((run) => run.paths.map((path) => ({ run, path })));
  const served = everyPath.filter(({ path }) => path.kind === 'catalog-served' && path.pmxt);
  const at = (run: SizeRun, path: RouterPath) => `${path.path} at ${run.events}`;
  const scaled = runs.length > 1 ? scaling(first, last) : [];
  const slowest = worst(scaled, (path) => path.requestsPerSecond);
  const widest = worst(scaled, (path) => -path.p95);
  const pmxtShare = worst(served, ({ path }) => path.ofPmxt!);
  const pmxtP99 = worst(served, ({ path }) => path.pmxt!.p99 - path.gateway.p99);
  const hapiShare = worst(everyPath, ({ path }) => path.ofHapi);
  const p95 = worst(everyPath, ({ path }) => -path.oneConnection.p95);
  return [
    {
      goal: `serving RSS at ${first.events} events ≤ 1 GiB`,
      measured: `${mib(first.serve.memory.rss)} MiB`,
      met: first.serve.memory.rss <= gibibyte,
    },
    { goal: `start from disk at ${first.events} events ≤ 5 s`, measured: `${fixed(first.serve.startSeconds)} s`, met: first.serve.startSeconds <= 5 },
    {
      goal: `ingestion at ${first.events} events ≥ 20,000 events/s`,
      measured: `${first.ingest.eventsPerSecond} events/s`,
      met: first.ingest.eventsPerSecond >= 20_000,
    },
    slowest
      ? {
          goal: `at ${last.events} events every path ≥ ½ its ${first.events}-event req/s`,
          measured: `lowest ${slowest.requestsPerSecond}× (${slowest.path})`,
          met: slowest.requestsPerSecond >= 0.5,
        }
      : { goal: 'at the largest size every path ≥ ½ its smallest-size req/s', measured: 'one catalog size only' },
    widest
      ? {
          goal: `at ${last.events} events every path’s 1-conn p95 ≤ 2× its ${first.events}-event p95`,
          measured: `highest ${widest.p95}× (${widest.path})`,
          met: widest.p95 <= 2,
        }
      : { goal: 'at the largest size every path’s 1-conn p95 ≤ 2× its smallest-size p95', measured: 'one catalog size only' },
    {
      goal: 'every catalog-served call ≥ 3× pmxt-core req/s',
      measured: pmxtShare ? `lowest ${pmxtShare.path.ofPmxt}× (${at(pmxtShare.run, pmxtShare.path)})` : '—',
      met: pmxtShare ? pmxtShare.path.ofPmxt! >= 3 : undefined,
    },
    {
      goal: 'every catalog-served call: p99 below pmxt-core’s',
      measured: pmxtP99 ? `closest ${pmxtP99.path.gateway.p99} ms vs pmxt-core ${pmxtP99.path.pmxt!.p99} ms (${at(pmxtP99.run, pmxtP99.path)})` : '—',
      met: pmxtP99 ? pmxtP99.path.gateway.p99 < pmxtP99.path.pmxt!.p99 : undefined,
    },
    {
      goal: 'every path ≥ 0.7× bare hapi req/s',
      measured: `lowest ${hapiShare!.path.ofHapi}× (${at(hapiShare!.run, hapiShare!.path)})`,
      met: hapiShare!.path.ofHapi >= 0.7,
    },
    {
      goal: 'every path’s 1-conn p95 ≤ 1 ms',
      measured: `highest ${p95!.path.oneConnection.p95} ms (${at(p95!.run, p95!.path)})`,
      met: p95!.path.oneConnection.p95 <= 1,
    },
  ];
}

interface Scaled {
  path: string;
  /** The last size's figure over the first's. */
  requestsPerSecond: number;
  p95: number;
}

function scaling(first: SizeRun, last: SizeRun): Scaled[] {
  return first.paths.map((before) => {
    const after = last.paths.find((path) => path.path === before.path)!;
    return {
      path: before.path,
      requestsPerSecond: ratio(after.gateway.requestsPerSecond, before.gateway.requestsPerSecond),
      p95: ratio(after.oneConnection.p95, before.oneConnection.p95),
    };
  });
}

function scalingTable(runs: SizeRun[]): string[] {
  if (runs.length < 2) return [];
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const ratios = scaling(first, last);
  return [
    `## ${last.events} events over ${first.events}`,
    '',
    `| path | req/s at ${first.events} | at ${last.events} | ratio | 1 conn p95 ms at ${first.events} | at ${last.events} | ratio |`,
    '|---|---|---|---|---|---|---|',
    ...first.paths.map((before, index) => {
      const after = last.paths.find((path) => path.path === before.path)!;
      return `| ${before.path} | ${before.gateway.requestsPerSecond} | ${after.gateway.requestsPerSecond} | ${ratios[index]!.requestsPerSecond} | ${before.oneConnection.p95} | ${after.oneConnection.p95} | ${ratios[index]!.p95} |`;
    }),
    '',
  ];
}

/** The entry scoring lowest, or undefined when there is none. */
function worst<T>(entries: T[], score: (entry: T) => number): T | undefined {
  return entries.reduce<T | undefined>((lowest, entry) => (lowest === undefined || score(entry) < score(lowest) ? entry : lowest), undefined);
}

function memory(figures: { rss: number; heapUsed: number; external: number; arrayBuffers: number }): string {
  return `${mib(figures.rss)} / ${mib(figures.heapUsed)} / ${mib(figures.external)} (${mib(figures.arrayBuffers)})`;
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}

function fixed(value: number): string {
  return value.toFixed(2);
}
