import { describe, expect, test } from 'vitest';
import { adapterMethod, capabilitiesOf } from '../methods/capabilities.js';
import type { VenueAdapter } from '../methods/adapter.js';
import type { Event, Market, Page } from '../model/index.js';
import { snapshotBounds, snapshotPage } from './snapshots.js';

const profile = { displayName: 'Offsets', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } };
const market = (id: number): Market =>
  ({ marketId: `m${id}`, title: `Market ${id}`, outcomes: [], volume24h: 0, liquidity: 0, url: '', status: 'active' }) as unknown as Market;

/** A venue listing `count` markets by offset, recording each call; its order changes with every new listing, as live venues' does. */
function offsetVenue(count: number) {
  const calls: Array<{ limit?: number; offset?: number }> = [];
  let shift = 0;
  const all = Array.from({ length: count }, (_, index) => market(index));
  const adapter: VenueAdapter = {
    id: 'offsets',
    profile,
    fetchMarkets: async (params = {}) => {
      calls.push({ limit: params.limit, offset: params.offset });
      const start = params.offset ?? 0;
      if (start === 0 && calls.length > 1) shift += 1;
      const rotated = [...all.slice(shift), ...all.slice(0, shift)];
      return rotated.slice(start, start + (params.limit ?? 10));
    },
    fetchEvents: async () => [{ id: 'e1', title: 'E', description: '', slug: 'e', markets: [], volume24h: 0, url: '' } as Event],
  };
  return { adapter, calls };
}

describe('paginated methods core derives from a snapshot, as pmxt does', () => {
  test('every venue with fetchMarkets gets fetchMarketsPaginated and loadMarkets, emulated', () => {
    expect(capabilitiesOf(offsetVenue(1).adapter)).toMatchObject({
      fetchMarketsPaginated: 'emulated',
      fetchEventsPaginated: 'emulated',
      loadMarkets: 'emulated',
    });
  });

  test('pages follow one snapshot whatever the venue does between calls, and the last page has no cursor', async () => {
    const { adapter, calls } = offsetVenue(1_500);
    const paginated = adapterMethod(adapter, 'fetchMarketsPaginated')!;
    const first = (await paginated({ limit: 600 })) as Page<Market>;
    expect(first.total).toBe(1_500);
    expect(first.data.map((item) => item.marketId).slice(0, 2)).toEqual(['m0', 'm1']);
    const listed = calls.length;
    const second = (await paginated({ limit: 600, cursor: first.nextCursor })) as Page<Market>;
    const third = (await paginated({ limit: 600, cursor: second.nextCursor })) as Page<Market>;
    // Later pages come from the snapshot: no venue call, no item twice, none left out.
    expect(calls.length).toBe(listed);
    const ids = [...first.data, ...second.data, ...third.data].map((item) => item.marketId);
    expect(new Set(ids).size).toBe(1_500);
    expect(third.nextCursor).toBeUndefined();
  });

  test('a snapshot stops at its bound, and at a venue that ignores offset', async () => {
    const big = offsetVenue(snapshotBounds.items + 700);
    const page = (await adapterMethod(big.adapter, 'fetchMarketsPaginated')!({ limit: 1 })) as Page<Market>;
    expect(page.total).toBe(snapshotBounds.items);
    const ignoring: VenueAdapter = { id: 'same', profile, fetchMarkets: async () => Array.from({ length: 1_000 }, (_, index) => market(index)) };
    const same = (await adapterMethod(ignoring, 'fetchMarketsPaginated')!({})) as Page<Market>;
    expect(same.total).toBe(1_000);
    expect(same.data).toHaveLength(snapshotBounds.defaultLimit);
  });

  test('a cursor of an expired or unknown snapshot is a VALIDATION_ERROR naming the venue', async () => {
    const owner = {};
    const take = async () => [1, 2, 3];
    const first = await snapshotPage(owner, 'offsets', { limit: 1 }, take, 0);
    await expect(snapshotPage(owner, 'offsets', { cursor: first.nextCursor }, take, snapshotBounds.ttlMs + 1)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      exchange: 'offsets',
    });
    await expect(snapshotPage(owner, 'offsets', { cursor: 'not-a-cursor' }, take)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  test('loadMarkets answers markets keyed by id, kept until reload', async () => {
    const { adapter, calls } = offsetVenue(3);
    const load = adapterMethod(adapter, 'loadMarkets')!;
    const markets = (await load()) as Record<string, Market>;
    expect(Object.keys(markets).sort()).toEqual(['m0', 'm1', 'm2']);
    expect(markets.m1!.marketId).toBe('m1');
    const listed = calls.length;
    await load(false);
    expect(calls.length).toBe(listed);
    await load(true);
    expect(calls.length).toBeGreaterThan(listed);
  });
});
