import type { Clock, OrderBook } from '@predgate/core';
import { noBook, outcomeNotFound } from '../errors.js';
import { generateCatalog } from './catalog.js';
import type { SimulatedCatalog } from './catalog.js';
import { simulateBook } from './market-data.js';

type VenueOptions = { seed: string; events: number; edgeCases: boolean };

/** What the simulated venue's reads share: one day's catalog and the clock. */
export interface SimulatedVenue {
  readonly catalog: SimulatedCatalog;
  clock: Clock;
}

/**
 * The venue of one adapter instance. Its catalog is generated on first use,
 * not here: a gateway serving the mock venue from its catalog on disk does not
 * generate the simulation's thousands of events at start.
 */
export function simulatedVenue(options: VenueOptions, clock: Clock): SimulatedVenue {
  let catalog: SimulatedCatalog | undefined;
  return {
    get catalog() {
      return (catalog ??= sharedCatalog(options, clock.now()));
    },
    clock,
  };
}

export function outcomeOf({ catalog }: SimulatedVenue, outcomeId: string) {
  const found = catalog.outcome(outcomeId);
  if (!found) throw outcomeNotFound(outcomeId);
  return found;
}

export function bookOf(venue: SimulatedVenue, outcomeId: string): OrderBook {
  const { outcome, market } = outcomeOf(venue, outcomeId);
  if (market.status !== 'active') throw noBook(outcomeId, market.status);
  return simulateBook(outcome, market, venue.clock.now());
}

// Every adapter instance (one per set of credentials) reads the same simulated catalog: by seed and
// event count, then by UTC day.
const catalogs = new Map<string, Map<number, SimulatedCatalog>>();

function sharedCatalog(options: VenueOptions, now: number): SimulatedCatalog {
  const venueKey = `${options.seed}:${options.events}:${options.edgeCases}`;
  const day = Math.floor(now / 86_400_000);
  let byDay = catalogs.get(venueKey);
  if (!byDay) {
    byDay = new Map();
    catalogs.set(venueKey, byDay);
  }
  let catalog = byDay.get(day);
  if (!catalog) {
    catalog = generateCatalog({ seed: options.seed, eventCount: options.events, edgeCases: options.edgeCases, now });
    // A server running for days would otherwise keep every day's catalog; instances made earlier keep theirs.
    for (const earlier of byDay.keys()) if (earlier < day) byDay.delete(earlier);
    byDay.set(day, catalog);
  }
  return catalog;
}
