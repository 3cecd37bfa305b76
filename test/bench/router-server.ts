// A gateway whose embedded catalog holds a large mock venue (BENCH_EVENTS,
// default 100,000 events), swept before it listens. It reports how fast the
// sweep went into the store and the memory the catalog takes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, loadConfig } from '@predgate/server';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const memory = () => {
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

const config = {
  ...loadConfig({ env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-bench-router-')) } }),
  rateLimit: { requests: 0, windowSeconds: 60 },
  catalog: { intervalSeconds: 3_600, freshForSeconds: 120, concurrency: 1, pageSize: 1_000 },
};
const generated = performance.now();
const app = await createApp({ config, manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events } }] } });
const generationSeconds = (performance.now() - generated) / 1000;

const before = memory();
const started = performance.now();
const sweep = await app.catalog.sweep('mock');
const sweepSeconds = (performance.now() - started) / 1000;
const catalogBytes = memory() - before;

await app.server.start();
process.stdout.write(
  `stats ${JSON.stringify({ events: sweep.events, markets: sweep.markets, outcomes: sweep.outcomes, generationSeconds, sweepSeconds, eventsPerSecond: Math.round(sweep.events / sweepSeconds), catalogBytes })}\n`,
);
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
