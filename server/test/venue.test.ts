import type { AdapterContext, AdapterPlugin, Logger, VenueAdapter } from '@predgate/core';
import { describe, expect, test, vi } from 'vitest';
import { Venue } from '../src/venues/venue.js';

describe('Venue credential pool', () => {
  test('an evicted client whose close fails is logged by name, not left as an unhandled rejection', async () => {
    const warn = vi.fn();
    const logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn(), child: () => logger } as unknown as Logger;
    const plugin = {
      id: 'brittle',
      version: '1.0.0',
      create: (context: AdapterContext) =>
        ({ close: () => Promise.reject(new TypeError(`cannot close ${String(context.credentials?.apiKey)}`)) }) as unknown as VenueAdapter,
    } as unknown as AdapterPlugin;
    const venue = new Venue(plugin, 'predgate-adapter-brittle', (credentials) => ({ logger, credentials }) as AdapterContext, { max: 1, idleMinutes: 5 });
    const first = venue.adapter({ apiKey: 'first-secret' });
    expect(venue.adapter({ apiKey: 'first-secret' })).toBe(first);
    venue.adapter({ apiKey: 'second-secret' });
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(warn).toHaveBeenCalledWith({ venue: 'brittle', error: 'TypeError' }, 'closing a pooled adapter failed');
    expect(JSON.stringify(warn.mock.calls)).not.toContain('secret');
  });
});
