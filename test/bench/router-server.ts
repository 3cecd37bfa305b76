// A gateway whose embedded catalog holds BENCH_EVENTS (default 100,000) mock
// events. The catalog is swept into the store first, from the mock venue's
// generator, measuring ingestion and the memory the catalog takes; then the
// gateway starts on that store, loading it from disk as a restart would, so
// the 100,000-event simulation is not kept alive beside the catalog it fed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCatalog } from '@predgate/adapter-mock';
import { CatalogService, EmbeddedCatalogStore } from '@predgate/catalog';
import type { VenueAdapter } from '@predgate/core';
import { createApp, loadConfig } from '@predgate/server';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'predgate-bench-router-'));
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const memory = () => {
  collect();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.external };
};
const seconds = (since: number) => (performance.now() - since) / 1000;

async function ingest() {
  const generated = performance.now();
  const catalog = generateCatalog({ seed: 'predgate', eventCount: events, now: Date.now() });
  const generationSeconds = seconds(generated);
  const venue: VenueAdapter = {
    id: 'mock',
    profile: { displayName: 'Mock', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } },
    fetchEvents: async (params = {}) => catalog.events.slice(params.offset ?? 0, (params.offset ?? 0) + params.limit!),
  };
  const store = new EmbeddedCatalogStore({ dir: join(dataDir, 'catalog') });
  await store.open();
  const service = new CatalogService({ store, venues: [{ id: 'mock', adapter: venue, pageSize: 1_000 }] });
  const before = memory();
  const started = performance.now();
  const sweep = await service.sweep('mock');
  const sweepSeconds = seconds(started);
  const after = memory();
  await store.close();
  return {
    events: sweep.events,
    markets: sweep.markets,
    outcomes: sweep.outcomes,
    generationSeconds,
    sweepSeconds,
    eventsPerSecond: Math.round(sweep.events / sweepSeconds),
    catalogHeapBytes: after.heap - before.heap,
    catalogExternalBytes: after.external - before.external,
  };
}

const ingestion = await ingest();
const config = {
  ...loadConfig({ env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: dataDir } }),
  rateLimit: { requests: 0, windowSeconds: 60 },
};
const opened = performance.now();
const app = await createApp({ config, manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: {} }] } });
const loadSeconds = seconds(opened);
const served = memory();
await app.server.start();
process.stdout.write(`stats ${JSON.stringify({ ...ingestion, loadSeconds, servingHeapBytes: served.heap, servingExternalBytes: served.external })}\n`);
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
