// The gateway as `predgate serve` runs it, on the mock venue, for load tests:
// request logging at warn (no per-request lines) and no per-key rate limit.
// With BENCH_SWEEP=1 the mock venue is swept into the catalog first, as
// `predgate serve` does at start, so its lists are catalog-served.
// BENCH_MANIFEST (JSON) replaces the mock-only manifest, for the proxy runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, loadConfig } from '@predgate/server';

const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const config = {
  ...loadConfig({
    env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-bench-')) },
  }),
  rateLimit: { requests: 0, windowSeconds: 60 },
};
const app = await createApp({
  config,
  manifest: process.env.BENCH_MANIFEST
    ? (JSON.parse(process.env.BENCH_MANIFEST) as { venues: Array<{ id: string; package: string; version: string; config: Record<string, unknown> }> })
    : { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: {} }] },
});
await app.server.start();
// As `predgate serve` runs: swept at once, then on schedule, so catalog-served answers stay fresh through long runs.
if (process.env.BENCH_SWEEP === '1') {
  await app.catalog.sweep('mock');
  app.catalog.start();
}
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
