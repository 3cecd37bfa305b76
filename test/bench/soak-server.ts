// The gateway for the soak benchmark: the mock venue swept into the catalog,
// and Polymarket pointed at a slow local fake venue (SLOW_VENUE). Once a
// second it prints its RSS, heap and event-loop delay as a JSON line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp, loadConfig } from '@predgate/server';

const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const slowVenue = process.env.SLOW_VENUE!;
const config = {
  ...loadConfig({
    env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-soak-')) },
  }),
  rateLimit: { requests: 0, windowSeconds: 60 },
  requestBudgetSeconds: 5,
};
const app = await createApp({
  config,
  manifest: {
    venues: [
      { id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: {} },
      {
        id: 'polymarket',
        package: '@predgate/adapter-polymarket',
        version: '^0.1.0',
        config: { hosts: { gamma: slowVenue, clob: slowVenue, data: slowVenue } },
      },
    ],
  },
});
await app.catalog.sweep('mock');
await app.server.start();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
setInterval(() => {
  const memory = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ sample: { rssMiB: memory.rss / 2 ** 20, heapMiB: memory.heapUsed / 2 ** 20, loopP99Ms: delay.percentile(99) / 1e6, loopMaxMs: delay.max / 1e6 } })}\n`,
  );
  delay.reset();
}, 1_000).unref();
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
