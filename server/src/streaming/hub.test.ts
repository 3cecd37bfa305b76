import { PredgateError, createFeed, silentLogger } from '@predgate/core';
import { until } from '@predgate/core/testkit';
import type { Feed, FeedListener, StreamOptions } from '@predgate/core';
import type { Logger } from 'pino';
import { describe, expect, test } from 'vitest';
import type { Venue } from '../venues/venue.js';
import { StreamHub } from './hub.js';
import type { UpstreamListener } from './hub.js';

const stream: StreamOptions = { symbols: 'one', keep: 'latest', upstreamArgs: 1 };

/** A venue whose feeds the test drives by hand, counting starts and stops. */
function handVenue() {
  const live = new Map<string, FeedListener<unknown>>();
  const counts = { started: 0, stopped: 0 };
  const adapter = {
    watchOrderBook: (symbol: string): Feed<unknown> =>
      createFeed((emit) => {
        counts.started += 1;
        live.set(symbol, emit);
        return () => {
          counts.stopped += 1;
          live.delete(symbol);
        };
      }),
  };
  const venue = { id: 'hand', adapter: () => adapter } as unknown as Venue;
  return { venue, live, counts };
}

function recorder() {
  const seen: Array<{ data?: unknown; error?: string; final?: boolean }> = [];
  const listener: UpstreamListener = {
    data: (payload) => seen.push({ data: payload }),
    error: (error, final) => seen.push({ error: error.code, final }),
  };
  return { seen, listener };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the stream hub', () => {
  test('one feed per symbol, whatever the number of watchers; the last to leave stops it', async () => {
    const { venue, live, counts } = handVenue();
    const hub = new StreamHub({ dataTimeoutMs: 10_000, logger: silentLogger as unknown as Logger });
    const a = recorder();
    const b = recorder();
    const target = { venue, method: 'watchOrderBook', stream, upstreamArgs: ['X'] };
    const stopA = hub.watch(target, a.listener);
    live.get('X')!.data({ n: 1 });
    const stopB = hub.watch(target, b.listener);
    await tick();
    expect(counts.started).toBe(1);
    expect(hub.size).toBe(1);
    // The newcomer gets the latest book at once.
    expect(b.seen).toEqual([{ data: { n: 1 } }]);
    live.get('X')!.data({ n: 2 });
    expect(a.seen.map((entry) => entry.data)).toEqual([{ n: 1 }, { n: 2 }]);
    stopA();
    expect(counts.stopped).toBe(0);
    stopB();
    await tick();
    expect(counts.stopped).toBe(1);
    expect(hub.size).toBe(0);
  });

  test('silence past the data timeout is a retryable error to each watcher, repeated while it lasts, and the watch goes on', async () => {
    const { venue, live } = handVenue();
    const hub = new StreamHub({ dataTimeoutMs: 50, logger: silentLogger as unknown as Logger });
    const a = recorder();
    const stop = hub.watch({ venue, method: 'watchOrderBook', stream, upstreamArgs: ['Y'] }, a.listener);
    // Waits on the errors themselves, not on a time that a busy machine may overrun before the timer re-arms.
    await until(() => a.seen.length >= 2, 'two data-timeout errors', 30_000);
    expect(a.seen.slice(0, 2)).toEqual([
      { error: 'NETWORK_ERROR', final: false },
      { error: 'NETWORK_ERROR', final: false },
    ]);
    live.get('Y')!.data({ n: 1 });
    expect(a.seen.at(-1)).toEqual({ data: { n: 1 } });
    stop();
    await hub.close();
  });

  test('a final venue error ends the upstream and tells every watcher; a retryable one does not', async () => {
    const { venue, live, counts } = handVenue();
    const hub = new StreamHub({ dataTimeoutMs: 10_000, logger: silentLogger as unknown as Logger });
    const a = recorder();
    hub.watch({ venue, method: 'watchOrderBook', stream, upstreamArgs: ['Z'] }, a.listener);
    live.get('Z')!.error(new PredgateError('NETWORK_ERROR', 'reconnecting'));
    expect(hub.size).toBe(1);
    live.get('Z')!.error(new PredgateError('OUTCOME_NOT_FOUND', 'no such token'));
    await tick();
    expect(a.seen).toEqual([
      { error: 'NETWORK_ERROR', final: false },
      { error: 'OUTCOME_NOT_FOUND', final: true },
    ]);
    expect(hub.size).toBe(0);
    expect(counts.stopped).toBe(1);
  });

  test('an adapter that throws when asked is a final error, and no upstream stays', async () => {
    const venue = {
      id: 'thrower',
      adapter: () => ({
        watchOrderBook: () => {
          throw new PredgateError('NOT_SUPPORTED', 'not here');
        },
      }),
    } as unknown as Venue;
    const hub = new StreamHub({ dataTimeoutMs: 10_000, logger: silentLogger as unknown as Logger });
    const a = recorder();
    hub.watch({ venue, method: 'watchOrderBook', stream, upstreamArgs: ['W'] }, a.listener);
    await tick();
    expect(a.seen).toEqual([{ error: 'NOT_SUPPORTED', final: true }]);
    expect(hub.size).toBe(0);
  });
});
