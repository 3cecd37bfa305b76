import { fixedClock } from '@predgate/core';
import type { VenueAdapter } from '@predgate/core';
import { expect, test } from 'vitest';
import { EmbeddedCatalogStore } from './embedded/embedded-store.js';
import { CatalogService } from './ingestion/catalog-service.js';
import { fixtureEvent, now } from '../test/fixtures.js';

test('a venue’s own category words, declared in its adapter’s profile, file its events once the catalog loads it', async () => {
  const store = new EmbeddedCatalogStore();
  await store.open();
  const events = [fixtureEvent('bonspiel', 'b1', { category: 'Curling' }), fixtureEvent('bonspiel', 'b2', { category: 'Chess Openings' })];
  const adapter: VenueAdapter = {
    id: 'bonspiel',
    profile: {
      displayName: 'Bonspiel',
      hosts: {},
      rateLimit: null,
      credentials: { required: [], optional: [] },
      categoryWords: { Sports: ['curling'] },
    },
    fetchEvents: async (params = {}) => events.slice(params.offset ?? 0, (params.offset ?? 0) + params.limit!),
  };
  const catalog = new CatalogService({ store, venues: [{ id: 'bonspiel', adapter }], clock: fixedClock(now) });
  await catalog.sweep('bonspiel');
  const sports = await store.events({ venue: 'bonspiel', category: 'Sports', status: 'all', order: 'venue', limit: 10, offset: 0 });
  expect(sports.items.map((entry) => entry.venueEventId)).toEqual(['b1']);
  // A word no adapter declares stays the venue's own, filed under Other.
  const other = await store.events({ venue: 'bonspiel', category: 'Other', status: 'all', order: 'venue', limit: 10, offset: 0 });
  expect(other.items.map((entry) => entry.venueEventId)).toEqual(['b2']);
});
