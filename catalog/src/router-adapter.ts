import { createRequire } from 'node:module';
import { coreVersion, defineAdapter, routerVenue } from '@predgate/core';
import type { AdapterPlugin, VenueAdapter } from '@predgate/core';
import { routerCalls } from './router-calls.js';
import type { CatalogStore } from './store.js';

const catalogPackage = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

/**
 * The Router as a venue: the catalog's cross-venue answers behind the same
 * adapter shape as any venue, so `/api/router/*` runs the ordinary
 * pass-through path and `describe` is derived like any venue's. The gateway
 * makes it (it is not an installable plugin: no package may claim `router`,
 * nor declare that it spans venues).
 */
export function routerVenuePlugin(store: CatalogStore): AdapterPlugin {
  return {
    id: routerVenue,
    version: catalogPackage.version,
    coreRange: coreVersion,
    displayName: 'Router (every venue, from the catalog)',
    spansVenues: true,
    create: (context): VenueAdapter =>
      defineAdapter({
        id: routerVenue,
        profile: { displayName: 'Router (every venue, from the catalog)', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } },
        ...routerCalls(store, () => context.clock.now()),
      }),
  };
}

/** The npm package that answers for the Router. */
export const routerPackage = catalogPackage.name;
