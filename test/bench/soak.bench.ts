import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { gatewayNodeOptions, startServer } from './processes.js';

export interface SoakFigures {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  non2xx: number;
  errors: number;
  /** One sample a second from inside the gateway. */
  samples: Array<{ rssMiB: number; heapMiB: number; loopP99Ms: number; loopMaxMs: number }>;
}

const apiKey = 'bench-key-0123456789abcdef';

/**
 * 60 s at full load over a mix of routes, one of them live to a venue that
 * answers each request after 2 s: the gateway's RSS and event-loop delay are
 * sampled each second and must stay flat.
 */
export async function benchSoak(seconds = Number(process.env.SOAK_SECONDS ?? 60)): Promise<{ summary: string; details: SoakFigures }> {
  const slow = createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 2_000);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const slowVenue = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  const gateway = await startServer('soak-server.ts', [], { SLOW_VENUE: slowVenue, BENCH_API_KEY: apiKey }, gatewayNodeOptions);
  const samples: SoakFigures['samples'] = [];
  gateway.child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (line.startsWith('{"sample"')) samples.push((JSON.parse(line) as { sample: SoakFigures['samples'][number] }).sample);
  });
  const base = `http://127.0.0.1:${gateway.port}`;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' };
  const result = await autocannon({
    url: base,
    connections: 32,
    duration: seconds,
    headers,
    requests: [
      { method: 'GET', path: '/v0/events?limit=50' },
      { method: 'GET', path: '/v0/events?q=will&limit=20' },
      { method: 'POST', path: '/api/mock/fetchEvents', body: JSON.stringify({ args: [{ limit: 20 }] }) },
      { method: 'GET', path: '/api/mock/fetchOrderBook?outcomeId=mock-e1-m0-0' },
      { method: 'POST', path: '/api/mock/fetchMarkets', body: JSON.stringify({ args: [{ limit: 20 }] }) },
      // Live to the slow venue: answered after 2 s, or by the circuit once it opens.
      { method: 'GET', path: '/api/polymarket/fetchEvents?limit=5' },
      { method: 'GET', path: '/api/mock/fetchEvents?limit=999999' },
    ],
  });
  await gateway.stop();
  slow.closeAllConnections();
  await new Promise((resolve) => slow.close(resolve));

  const figures: SoakFigures = {
    seconds,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    non2xx: result.non2xx,
    errors: result.errors,
    samples,
  };
  const third = Math.max(1, Math.floor(samples.length / 3));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const first = samples.slice(1, third + 1);
  const last = samples.slice(-third);
  const row = (name: string, pick: (sample: SoakFigures['samples'][number]) => number) =>
    `| ${name} | ${mean(first.map(pick)).toFixed(1)} | ${mean(last.map(pick)).toFixed(1)} | ${Math.max(...samples.map(pick)).toFixed(1)} |`;
  const summary = [
    `${seconds} s at 32 connections over a mix of 7 routes (Router pages, catalog-served and live mock calls, one live call to a venue that answers after 2 s, one refused argument), every request with \`accept-encoding: gzip, deflate, br\`: ${figures.requests} requests, ${figures.requestsPerSecond} req/s, ${figures.non2xx} non-2xx (the slow venue's budget or circuit answers and the refused argument), ${figures.errors} socket errors.`,
    '',
    '| sampled each second in the gateway | first third (mean) | last third (mean) | max |',
    '|---|---|---|---|',
    row('RSS MiB', (sample) => sample.rssMiB),
    row('heap MiB', (sample) => sample.heapMiB),
    row('event-loop delay p99 ms', (sample) => sample.loopP99Ms),
    row('event-loop delay max ms', (sample) => sample.loopMaxMs),
  ].join('\n');
  return { summary, details: figures };
}
