// The ingestion half of the router benchmark, in a process of its own:
// generates BENCH_EVENTS mock events and sweeps them into the embedded store
// in BENCH_DATA_DIR, then exits. The serving gateway then starts from that
// directory in another process, so its memory holds what it loaded from disk
// and not the generator's copy of the catalog. With BENCH_IDS_FILE, it also
// writes there what the varied-request bench draws its requests from.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { generateCatalog } from '@predgate/adapter-mock';
import { CatalogService, EmbeddedCatalogStore, catalogEventId, isTrading } from '@predgate/catalog';
import { withBinaryRefs } from '@predgate/core';
import type { Event, VenueAdapter } from '@predgate/core';
import { settledMemory } from './memory.js';

const events = Number(process.env.BENCH_EVENTS);
const dataDir = process.env.BENCH_DATA_DIR;
if (!events || !dataDir) throw new Error('BENCH_EVENTS and BENCH_DATA_DIR are required');
const seconds = (since: number) => (performance.now() - since) / 1000;
/** CPU time (user and system) since `since`: on a busy shared machine it moves less than time does. */
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

// Events per venue page: the most the gateway's catalog settings allow; BENCH_PAGE_SIZE to compare (the gateway's default is 200).
const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? 1_000);
const generated = performance.now();
// Held as the venue holds it, pages of JSON text, so the sweep meets what a live one meets: one page of
// objects at a time, parsed from the venue's answer, not a whole catalog of objects kept alive beside the store.
const pages = (() => {
  const { events: all } = generateCatalog({ seed: 'predgate', eventCount: events, now: Date.now() });
  if (process.env.BENCH_IDS_FILE) writeFileSync(process.env.BENCH_IDS_FILE, JSON.stringify(catalogIds(all)));
  return Array.from({ length: Math.ceil(all.length / pageSize) }, (_, page) => JSON.stringify(all.slice(page * pageSize, (page + 1) * pageSize)));
})();
const generationSeconds = seconds(generated);

// The time spent inside the venue (parsing its page) is the fake's, not ingestion's: it is summed here and taken out of the rate.
// Its events come as an adapter hands them out: a binary market's yes/no/up/down are its outcomes (core's
// withBinaryRefs, which every adapter's normalising ends with), not the equal copies JSON parsing alone makes.
let venueSeconds = 0;
let venueCpuSeconds = 0;
let venuePageFaults = 0;
const venue: VenueAdapter = {
  id: 'mock',
  profile: { displayName: 'Mock', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } },
  fetchEvents: async (params = {}) => {
    const asked = performance.now();
    const askedCpu = process.cpuUsage();
    const askedFaults = process.resourceUsage().minorPageFault;
    const page = (params.offset ?? 0) / pageSize;
    const answer = page < pages.length ? (JSON.parse(pages[page]!) as Event[]).map((event) => ({ ...event, markets: event.markets.map(withBinaryRefs) })) : [];
    venueSeconds += seconds(asked);
    venueCpuSeconds += cpuSeconds(askedCpu);
    venuePageFaults += process.resourceUsage().minorPageFault - askedFaults;
    return answer;
  },
};
const store = new EmbeddedCatalogStore({ dir: join(dataDir, 'catalog') });
await store.open();
const service = new CatalogService({ store, venues: [{ id: 'mock', adapter: venue, pageSize }] });
// BENCH_PROFILE names a file for a CPU profile of the sweep alone (not of the generator or the process's start).
const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const started = performance.now();
const startedCpu = process.cpuUsage();
// First touches of memory: on a VM that hands freed memory back to its host (free page reporting), each costs tens
// of µs rather than a fraction of one, and they are then a large share of a sweep's CPU time.
const startedFaults = process.resourceUsage().minorPageFault;
const sweep = await service.sweep('mock');
const sweepSeconds = seconds(started);
const sweepCpuSeconds = cpuSeconds(startedCpu);
const sweepPageFaults = process.resourceUsage().minorPageFault - startedFaults;
// Kernel time apart: on this VM it is mostly first touches of memory, which user time does not show.
const sweepSystemSeconds = process.cpuUsage(startedCpu).system / 1e6;
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
const memory = await settledMemory();
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
    sweepCpuSeconds,
    sweepSystemSeconds,
    venueCpuSeconds,
    eventsPerCpuSecond: Math.round(sweep.events / (sweepCpuSeconds - venueCpuSeconds)),
    memory,
    sweepPageFaults,
    venuePageFaults,
  })}\n`,
);

/** The catalog's ids, counts and title words, for drawing varied requests (see cold.bench.ts). */
function catalogIds(all: Event[]) {
  // The gateway's live mock venue simulates its first 2,000 events (its default size), the same as these.
  const liveEvents = new Set(Array.from({ length: 2_000 }, (_, index) => `mock-e${index}`));
  const words = new Set<string>();
  for (const event of all) for (const word of event.title.toLowerCase().split(/[^a-z]+/)) if (word.length >= 5) words.add(word);
  return {
    eventIds: all.map((event) => event.id),
    routerIds: all.map((event) => catalogEventId('mock', event.id)),
    marketIds: all.flatMap((event) => event.markets.map((market) => market.marketId)),
    // Only markets still trading have a book.
    liveOutcomeIds: all
      .filter((event) => liveEvents.has(event.id))
      .flatMap((event) => event.markets.filter(isTrading).flatMap((market) => market.outcomes.map((outcome) => outcome.outcomeId))),
    activeEvents: all.filter((event) => !(event.markets.length > 0 && event.markets.every((market) => !isTrading(market)))).length,
    tradingMarkets: all.reduce((sum, event) => sum + event.markets.filter(isTrading).length, 0),
    words: [...words],
  };
}
