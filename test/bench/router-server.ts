// The serving half of the router benchmark: a gateway started on the embedded
// catalog another process swept into BENCH_DATA_DIR, so it loads the catalog
// from disk as a restart would. Reports the start time (createApp opening the
// store until the server listens), the time until its lookup maps are all
// built, the time until every event's gzip pieces are made, and its memory
// then (serving answers from the pieces, so what making them leaves behind counts).
import type { EmbeddedCatalogStore } from '@predgate/catalog';
import { createApp, loadConfig } from '@predgate/server';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { settledMemory } from './memory.js';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
const apiKey = process.env.BENCH_API_KEY ?? 'bench-key-0123456789abcdef';
const base = loadConfig({ env: { PORT: '0', LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: dataDir } });
const config = {
  ...base,
  rateLimit: { requests: 0, windowSeconds: 60 },
  // The sweep is not repeated while the benchmark runs (it would measure ingestion under load), so the swept
  // catalog must stay fresh for the whole run or the pass-through calls would go to the live mock venue.
  catalog: { ...base.catalog, freshForSeconds: 7 * 24 * 3600 },
};
const opened = performance.now();
const app = await createApp({ config, manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: {} }] } });
await app.server.start();
const startSeconds = (performance.now() - opened) / 1000;
// Serving starts before the market, outcome and slug maps are built (they are built between requests); the
// paths are measured once they are, so the first path does not pay for them, and memory counts them.
await (app.catalog.store as EmbeddedCatalogStore).indexed();
const indexedSeconds = (performance.now() - opened) / 1000;
await (app.catalog.store as EmbeddedCatalogStore).piecesMade();
const piecesSeconds = (performance.now() - opened) / 1000;
// The events' bytes are read from the catalog's files through the page cache, not held: their size is reported beside RSS.
const catalogDir = join(dataDir, 'catalog');
const catalogFileBytes = readdirSync(catalogDir).reduce((sum, name) => sum + statSync(join(catalogDir, name)).size, 0);
process.stdout.write(`stats ${JSON.stringify({ startSeconds, indexedSeconds, piecesSeconds, catalogFileBytes, memory: await settledMemory() })}\n`);
process.stdout.write(`listening ${app.server.info.port}\n`);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
