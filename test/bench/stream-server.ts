// The gateway on the mock venue for the streaming fan-out benchmark: the
// simulated book ticks every BENCH_TICK_MS; logging at warn; no rate limit.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, loadConfig } from '@predgate/server';

const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const loaded = loadConfig({
  env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-bench-')) },
});
const config = {
  ...loaded,
  rateLimit: { requests: 0, windowSeconds: 60 },
  streaming: { ...loaded.streaming, maxSymbols: 10_000, maxWatchesPerKey: 100_000 },
};
const app = await createApp({
  config,
  manifest: {
    venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 50, tickMs: Number(process.env.BENCH_TICK_MS ?? 50) } }],
  },
});
await app.server.start();
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
