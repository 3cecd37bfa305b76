import { request } from 'undici';
import { load, turnRounds } from './load.js';
import type { LoadFigures, LoadTarget } from './load.js';
import { gatewayNodeOptions, startServer } from './processes.js';
import { pmxtToken, ratio, sideBySide, startPmxt } from './side-by-side.js';
import type { SideBySide } from './side-by-side.js';

/**
 * The request path as real clients take it (issue: fast as real clients call
 * it). Every target runs without and with `accept-encoding: gzip, deflate, br`,
 * beside a bare hapi route and a bare node:http server sending the gateway's
 * exact bytes (encoded as the gateway encoded them), and beside pmxt-core
 * 2.41's sidecar on the same mock call. A second part measures the live proxy
 * path against a local fake venue: what the gateway adds over calling it directly.
 */

const apiKey = 'bench-key-0123456789abcdef';
const compressed = { 'accept-encoding': 'gzip, deflate, br' };
const polymarketToken = '54533043819946592547517511176940999955633860128497669742211153063842200957669';

export type PathFigures = SideBySide & { encoding: 'identity' | 'gzip, deflate, br' };

export interface ProxyFigures {
  venue: string;
  direct: LoadFigures;
  gateway: LoadFigures;
  addedP50: number;
  addedP99: number;
}

interface Call {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** The same call on pmxt-core's sidecar, where it has one. */
  pmxt?: { path: string; method?: 'GET' | 'POST'; body?: string };
}

export async function benchRequestPath(): Promise<{ summary: string; details: object }> {
  const pmxt = await startPmxt();
  const gateway = await startServer('gateway-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_SWEEP: '1' }, gatewayNodeOptions);
  const base = `http://127.0.0.1:${gateway.port}`;
  const auth = { authorization: `Bearer ${apiKey}` };
  const paths: PathFigures[] = [];
  try {
    const markets = (await (await request(`${base}/api/mock/fetchMarkets?limit=1`, { headers: auth })).body.json()) as {
      data: Array<{ outcomes: Array<{ outcomeId: string }> }>;
    };
    const outcomeId = markets.data[0]!.outcomes[0]!.outcomeId;
    const calls: Call[] = [
      {
        name: 'live GET /api/mock/fetchOrderBook',
        path: `/api/mock/fetchOrderBook?outcomeId=${outcomeId}`,
        pmxt: { path: '/api/mock/fetchOrderBook?outcomeId=m-1-yes' },
      },
      {
        name: 'catalog POST /api/mock/fetchEvents limit 20',
        path: '/api/mock/fetchEvents',
        method: 'POST',
        body: '{"args":[{"limit":20}]}',
        pmxt: { path: '/api/mock/fetchEvents', method: 'POST', body: '{"args":[{"limit":20}]}' },
      },
      {
        name: 'catalog POST /api/mock/fetchMarkets limit 20',
        path: '/api/mock/fetchMarkets',
        method: 'POST',
        body: '{"args":[{"limit":20}]}',
        pmxt: { path: '/api/mock/fetchMarkets', method: 'POST', body: '{"args":[{"limit":20}]}' },
      },
      { name: 'Router GET /v0/events?limit=50', path: '/v0/events?limit=50' },
    ];
    for (const call of calls) {
      for (const encoding of ['identity', 'gzip, deflate, br'] as const) {
        const headers = { ...auth, ...(encoding === 'identity' ? {} : compressed) };
        const target: LoadTarget = { name: `${call.name} (${encoding})`, url: `${base}${call.path}`, method: call.method, body: call.body, headers };
        const pmxtTarget = call.pmxt
          ? {
              name: `pmxt-core ${call.pmxt.path}`,
              url: `http://127.0.0.1:${pmxt.port}${call.pmxt.path}`,
              method: call.pmxt.method,
              body: call.pmxt.body,
              headers: { 'x-pmxt-access-token': pmxtToken, ...(encoding === 'identity' ? {} : compressed) },
            }
          : undefined;
        paths.push({ ...(await sideBySide(target, pmxtTarget)), encoding });
      }
    }
  } finally {
    await gateway.stop();
    await pmxt.stop();
  }
  const proxies = await measureProxies();
  return { summary: summarize(paths, proxies), details: { paths, proxies } };
}

/** A local fake venue answering recorded books instantly, a gateway proxying to it, and the same book call on each. */
export interface ProxyPair {
  gatewayOrigin: string;
  headers: Record<string, string>;
  calls: Array<{ venue: string; direct: string; through: string }>;
  stop(): Promise<void>;
}

/** Starts the fake venue and a gateway whose Polymarket and Kalshi adapters call it (rate limits off). */
export async function startProxyPair(): Promise<ProxyPair> {
  const venue = await startServer('fake-venue-server.ts');
  const origin = `http://127.0.0.1:${venue.port}`;
  const unlimited = { requests: 1_000_000, intervalMs: 1_000 };
  const manifest = {
    venues: [
      {
        id: 'polymarket',
        package: '@predgate/adapter-polymarket',
        version: '^0.1.0',
        config: { hosts: { gamma: origin, clob: origin, data: origin }, rateLimit: unlimited },
      },
      {
        id: 'kalshi',
        package: '@predgate/adapter-kalshi',
        version: '^0.1.0',
        config: { hosts: { rest: `${origin}/trade-api/v2`, restFallbacks: [] }, rateLimit: unlimited },
      },
    ],
  };
  const gateway = await startServer('gateway-server.ts', [], { BENCH_API_KEY: apiKey, BENCH_MANIFEST: JSON.stringify(manifest) }, gatewayNodeOptions).catch(
    async (error: unknown) => {
      await venue.stop();
      throw error;
    },
  );
  return {
    gatewayOrigin: `http://127.0.0.1:${gateway.port}`,
    headers: { authorization: `Bearer ${apiKey}` },
    calls: [
      { venue: 'polymarket', direct: `${origin}/book?token_id=${polymarketToken}`, through: `/api/polymarket/fetchOrderBook?outcomeId=${polymarketToken}` },
      {
        venue: 'kalshi',
        direct: `${origin}/trade-api/v2/markets/KXFEDDECISION-26JUN-H0/orderbook`,
        through: '/api/kalshi/fetchOrderBook?outcomeId=KXFEDDECISION-26JUN-H0',
      },
    ],
    stop: async () => {
      await gateway.stop();
      await venue.stop();
    },
  };
}

/** One connection, so the figures are each call's own time: the fake venue directly, then through the gateway. */
async function measureProxies(): Promise<ProxyFigures[]> {
  const pair = await startProxyPair();
  const seconds = Math.max(3, Number(process.env.BENCH_SECONDS ?? 10) / 2);
  const figures: ProxyFigures[] = [];
  try {
    for (const call of pair.calls) {
      const direct = await load({ name: `${call.venue} fake venue directly`, url: call.direct }, seconds, 1);
      const through = await load({ name: `${call.venue} through the gateway`, url: `${pair.gatewayOrigin}${call.through}`, headers: pair.headers }, seconds, 1);
      if (through.non2xx > 0) throw new Error(`${call.through} answered non-2xx ${through.non2xx} times`);
      figures.push({
        venue: call.venue,
        direct,
        gateway: through,
        addedP50: round(through.p50 - direct.p50),
        addedP99: round(through.p99 - direct.p99),
      });
    }
  } finally {
    await pair.stop();
  }
  return figures;
}

function summarize(paths: PathFigures[], proxies: ProxyFigures[]): string {
  const byTarget = new Map<string, PathFigures>();
  for (const figures of paths) if (figures.encoding === 'identity') byTarget.set(figures.target.replace(' (identity)', ''), figures);
  const ms = (figures: LoadFigures) => `${figures.p50} / ${figures.p99}`;
  return [
    `autocannon (leaving the bodies it does not read undecoded: see \`load.ts\`), 32 connections, 10 s per figure (one connection: 5 s), measured in ${turnRounds} rounds taken in turn with the baselines, every response of the rounds pooled. Each row: the gateway, a bare hapi route and a bare node:http server sending the gateway’s exact bytes (encoded as the gateway encoded them), and pmxt-core 2.41’s sidecar on the same mock call.`,
    '',
    '| target | bytes sent | gateway req/s | p50 / p99 ms | 1 conn p50 / p95 / p99 ms | bare hapi req/s | node:http req/s | pmxt-core req/s (p99 ms) | of hapi | of pmxt | compressed / identity req/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...paths.map((figures) => {
      const identity = byTarget.get(figures.target.replace(` (${figures.encoding})`, ''));
      const share = figures.encoding === 'identity' || !identity ? '—' : String(ratio(figures.gateway.requestsPerSecond, identity.gateway.requestsPerSecond));
      return `| ${figures.target} | ${figures.bytes}${figures.contentEncoding ? ` (${figures.contentEncoding})` : ''} | ${figures.gateway.requestsPerSecond} | ${ms(figures.gateway)} | ${figures.oneConnection.p50} / ${figures.oneConnection.p95} / ${figures.oneConnection.p99} | ${figures.hapi.requestsPerSecond} | ${figures.node.requestsPerSecond} | ${figures.pmxt ? `${figures.pmxt.requestsPerSecond} (${figures.pmxt.p99})` : '—'} | ${figures.ofHapi} | ${figures.ofPmxt ?? '—'} | ${share} |`;
    }),
    '',
    'Live proxy to a local fake venue answering recorded payloads instantly, one connection:',
    '',
    '| venue call | direct p50 / p99 ms | through the gateway p50 / p99 ms | added p50 ms | added p99 ms |',
    '|---|---|---|---|---|',
    ...proxies.map(
      (figures) => `| ${figures.venue} fetchOrderBook | ${ms(figures.direct)} | ${ms(figures.gateway)} | ${figures.addedP50} | ${figures.addedP99} |`,
    ),
  ].join('\n');
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
