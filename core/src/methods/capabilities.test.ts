import { describe, expect, test } from 'vitest';
import type { Event } from '../model/index.js';
import { adapterMethod, capabilitiesOf } from './capabilities.js';
import type { VenueAdapter } from './adapter.js';

const profile = { displayName: 'Lists', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } };
const event = (id: string): Event => ({ id, title: `Event ${id}`, description: '', slug: `event-${id}`, markets: [], volume24h: 0, url: '' });
const lister: VenueAdapter = { id: 'lists', profile, fetchEvents: async () => [event('1'), event('2')] };

describe('methods core derives for an adapter', () => {
  test('are emulated in the capability map, and only where the adapter has what they need', () => {
    const has = capabilitiesOf(lister);
    expect(has).toMatchObject({
      fetchEvents: true,
      fetchEvent: 'emulated',
      fetchEventsPaginated: 'emulated',
      filterEvents: 'emulated',
      filterMarkets: 'emulated',
      getExecutionPrice: 'emulated',
      getExecutionPriceDetailed: 'emulated',
      fetchMarket: false,
      fetchMarketsPaginated: false,
      loadMarkets: false,
      fetchOrderBook: false,
    });
  });

  test("fetchEvent is built on the adapter's own list and says which venue did not find it", async () => {
    const fetchEvent = adapterMethod(lister, 'fetchEvent')!;
    await expect(fetchEvent({ eventId: '2' })).resolves.toMatchObject({ id: '2' });
    await expect(fetchEvent({ eventId: '3' })).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND', exchange: 'lists' });
  });

  test('pure computations answer for any adapter', () => {
    const book = { bids: [{ price: 0.4, size: 5 }], asks: [{ price: 0.6, size: 5 }] };
    expect(adapterMethod(lister, 'getExecutionPrice')!(book, 'buy', 5)).toBe(0.6);
    expect(adapterMethod(lister, 'filterEvents')!([event('1'), event('2')], 'event 2')).toEqual([event('2')]);
  });

  test("an adapter's own implementation wins over core's", async () => {
    const own: VenueAdapter = { ...lister, fetchEvent: async () => event('own') };
    expect(capabilitiesOf(own).fetchEvent).toBe(true);
    await expect(adapterMethod(own, 'fetchEvent')!({ eventId: '1' })).resolves.toMatchObject({ id: 'own' });
  });
});
