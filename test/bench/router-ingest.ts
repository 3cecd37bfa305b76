// The ingestion half of the router benchmark, in a process of its own:
// generates BENCH_EVENTS mock events and sweeps them into the embedded store
// in BENCH_DATA_DIR, then exits. The serving gateway then starts from that
// directory in another process, so its memory holds what it loaded from disk
// and not the generator's copy of the catalog.
import { join } from 'node:path';
import { generateCatalog } from '@predgate/adapter-mock';
import { CatalogService, EmbeddedCatalogStore } from '@predgate/catalog';
import type { VenueAdapter } from '@predgate/core';
import { settledMemory } from './memory.js';

const events = Number(process.env.BENCH_EVENTS);
const dataDir = process.env.BENCH_DATA_DIR;
if (!events || !dataDir) throw new Error('BENCH_EVENTS and BENCH_DATA_DIR are required');
const seconds = (since: number) => (performance.now() - since) / 1000;

const generated = performance.now();
const catalog = generateCatalog({ seed: 'predgate', eventCount: events, now: Date.now() });
const generationSeconds = seconds(generated);

// The time spent inside the venue is the fake's, not ingestion's: it is summed here and taken out of the rate.
let venueSeconds = 0;
const venue: VenueAdapter = {
  id: 'mock',
  profile: { displayName: 'Mock', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } },
  fetchEvents: async (params = {}) => {
    const asked = performance.now();
    const page = catalog.events.slice(params.offset ?? 0, (params.offset ?? 0) + params.limit!);
    venueSeconds += seconds(asked);
    return page;
  },
};
const store = new EmbeddedCatalogStore({ dir: join(dataDir, 'catalog') });
await store.open();
const service = new CatalogService({ store, venues: [{ id: 'mock', adapter: venue, pageSize: 1_000 }] });
const started = performance.now();
const sweep = await service.sweep('mock');
const sweepSeconds = seconds(started);
const memory = settledMemory();
await store.close();

const ingestSeconds = sweepSeconds - venueSeconds;
process.stdout.write(
  `${JSON.stringify({
    events: sweep.events,
    markets: sweep.markets,
    outcomes: sweep.outcomes,
    generationSeconds,
    sweepSeconds,
    venueSeconds,
    eventsPerSecond: Math.round(sweep.events / ingestSeconds),
    memory,
  })}\n`,
);
