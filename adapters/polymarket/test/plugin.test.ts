import { createHttpClientFactory, fixedClock, silentLogger, validateAdapterPlugin } from '@predgate/core';
import { describe, expect, test } from 'vitest';
import { readPolymarketConfig } from '../src/config.js';
import plugin from '../src/index.js';

const context = (config: Record<string, unknown>) => ({ http: createHttpClientFactory(), logger: silentLogger, clock: fixedClock(0), config });

describe('plugin', () => {
  test('is a valid adapter plugin for the running core', () => {
    expect(validateAdapterPlugin(plugin, '@predgate/adapter-polymarket')).toBe(plugin);
    expect(plugin).toMatchObject({ id: 'polymarket', version: '0.1.0', displayName: 'Polymarket' });
  });

  test('makes adapters that describe hosts, rate limit and credential members', () => {
    const adapter = plugin.create(context({}));
    expect(adapter.id).toBe('polymarket');
    expect(adapter.profile).toMatchObject({
      displayName: 'Polymarket',
      hosts: { gamma: 'https://gamma-api.polymarket.com', clob: 'https://clob.polymarket.com', data: 'https://data-api.polymarket.com' },
      rateLimit: { requests: 150, intervalMs: 10_000 },
      credentials: { required: ['privateKey'], optional: ['apiKey', 'apiSecret', 'passphrase', 'signatureType', 'funderAddress'] },
      orderControls: ['timeInForce', 'postOnly', 'expiry'],
    });
  });

  test('has no method the venue cannot answer, and says why for each', () => {
    const adapter = plugin.create(context({}));
    for (const name of ['fetchAllOrders', 'fetchClosedOrders', 'fetchEventMetadata']) {
      expect((adapter as unknown as Record<string, unknown>)[name]).toBeUndefined();
      expect((adapter.profile.unsupported as Record<string, string> | undefined)?.[name]).toMatch(/^Polymarket/);
    }
  });
});

describe('configuration', () => {
  test('defaults', () => {
    expect(readPolymarketConfig({})).toEqual({
      hosts: { gamma: 'https://gamma-api.polymarket.com', clob: 'https://clob.polymarket.com', data: 'https://data-api.polymarket.com' },
      pageSize: 100,
      userAgent: 'Mozilla/5.0 (compatible; predgate-adapter-polymarket)',
      rateLimit: { requests: 150, intervalMs: 10_000 },
      ws: 'wss://ws-subscriptions-clob.polymarket.com/ws/market',
      stream: { pingIntervalMs: 10_000, backoff: { initialMs: 500, maxMs: 30_000 } },
    });
  });

  test('an operator with a higher tier raises the rate limit, and describe says so', () => {
    const adapter = plugin.create(context({ rateLimit: { requests: 500, intervalMs: 1_000 } }));
    expect(adapter.profile.rateLimit).toEqual({ requests: 500, intervalMs: 1_000 });
  });

  test('hosts are overridable one by one, trailing slashes dropped', () => {
    const config = readPolymarketConfig({ hosts: { clob: 'http://127.0.0.1:9000/' }, pageSize: 500, userAgent: 'ua' });
    expect(config.hosts).toEqual({ gamma: 'https://gamma-api.polymarket.com', clob: 'http://127.0.0.1:9000', data: 'https://data-api.polymarket.com' });
    expect(plugin.create(context({ hosts: { clob: 'http://127.0.0.1:9000' } })).profile.hosts.clob).toBe('http://127.0.0.1:9000');
  });

  test.each([[{ pageSize: 501 }], [{ hosts: { gamma: 'not a url' } }], [{ unknown: 1 }], [{ rateLimit: { requests: 0, intervalMs: 1000 } }]])(
    '%j is refused with the field named',
    (config) => {
      expect(() => readPolymarketConfig(config)).toThrow(/polymarket: invalid adapter configuration/);
    },
  );
});
