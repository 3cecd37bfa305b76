import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { kalshiPlugin } from '../src/index.js';

const origin = 'https://external-api.kalshi.com';

/** A venue with endless pages of two events each; every request is recorded. */
function endlessVenue() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: URL[] = [];
  agent
    .get(origin)
    .intercept({ path: (path) => path.startsWith('/trade-api/v2/events?'), method: 'GET' })
    .reply((options) => {
      const url = new URL(options.path, origin);
      seen.push(url);
      const page = Number(url.searchParams.get('cursor') ?? '0');
      const event = (index: number) => ({ event_ticker: `KXE-${page}-${index}`, title: `Event ${page}.${index}`, markets: [] });
      return {
        statusCode: 200,
        data: { cursor: String(page + 1), events: [event(0), event(1)] },
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  const adapter = kalshiPlugin.create({
    http: createHttpClientFactory({ dispatcher: agent }),
    logger: silentLogger,
    clock: fixedClock(0),
    config: { pageSize: 2, maxPages: 3 },
  });
  return { adapter, seen };
}

describe('page cap', () => {
  test('a search that finds nothing stops after maxPages pages', async () => {
    const { adapter, seen } = endlessVenue();
    await expect(adapter.fetchEvents({ query: 'nothing matches this', limit: 5 })).resolves.toEqual([]);
    expect(seen.map((url) => url.searchParams.get('cursor'))).toEqual([null, '1', '2']);
    expect(seen.every((url) => url.searchParams.get('limit') === '2')).toBe(true);
  });

  test('a page cut short by the cap hands back where to continue', async () => {
    const { adapter, seen } = endlessVenue();
    const page = await adapter.fetchEventsPaginated({ limit: 100 });
    expect(page.data.map((event) => event.id)).toEqual(['KXE-0-0', 'KXE-0-1', 'KXE-1-0', 'KXE-1-1', 'KXE-2-0', 'KXE-2-1']);
    expect(page.nextCursor).toBe('3');
    expect(seen).toHaveLength(3);
  });

  test('an all-status sweep counts its passes against the same cap', async () => {
    const { adapter, seen } = endlessVenue();
    await adapter.fetchEvents({ status: 'all', limit: 100 });
    expect(seen.map((url) => url.searchParams.get('status'))).toEqual(['open', 'open', 'open']);
  });
});
