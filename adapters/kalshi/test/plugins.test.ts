import { AdapterPluginError, createHttpClientFactory, fixedClock, silentLogger, validateAdapterPlugin } from '@predgate/core';
import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import defaultPlugin, { kalshiDemoPlugin, kalshiPlugin, plugins } from '../src/index.js';

const context = (config: Record<string, unknown> = {}, dispatcher = new MockAgent()) => ({
  http: createHttpClientFactory({ dispatcher }),
  logger: silentLogger,
  clock: fixedClock(0),
  config,
});

describe('plugins', () => {
  test('one package, two venues: kalshi (the default export) and kalshi-demo', () => {
    expect(plugins.map((plugin) => plugin.id)).toEqual(['kalshi', 'kalshi-demo']);
    expect(defaultPlugin).toBe(kalshiPlugin);
    for (const plugin of plugins) expect(validateAdapterPlugin(plugin, '@predgate/adapter-kalshi')).toBe(plugin);
    expect(kalshiPlugin.displayName).toBe('Kalshi');
    expect(kalshiDemoPlugin.displayName).toBe('KalshiDemo');
  });

  test('each venue has its own hosts and names the credentials it needs', () => {
    expect(kalshiPlugin.create(context()).profile).toEqual({
      displayName: 'Kalshi',
      // Which words of Kalshi's categories file an event where is the venue's own to say (tested in the catalog).
      categoryWords: expect.objectContaining({ Sports: expect.arrayContaining(['nba']) }),
      hosts: { rest: 'https://external-api.kalshi.com/trade-api/v2', web: 'https://kalshi.com', restFallback1: 'https://api.elections.kalshi.com' },
      rateLimit: { requests: 10, intervalMs: 1_000 },
      credentials: { required: ['apiKey', 'privateKey'], optional: [] },
      orderControls: ['timeInForce', 'postOnly', 'reduceOnly', 'expiry', 'denom', 'slippage_pct'],
    });
    expect(kalshiDemoPlugin.create(context()).profile.hosts).toEqual({
      rest: 'https://external-api.demo.kalshi.co/trade-api/v2',
      web: 'https://demo.kalshi.co',
      restFallback1: 'https://demo-api.kalshi.co',
    });
  });

  test.each([
    ['kalshi', kalshiPlugin, 'https://external-api.kalshi.com', 'https://api.elections.kalshi.com'],
    ['kalshi-demo', kalshiDemoPlugin, 'https://external-api.demo.kalshi.co', 'https://demo-api.kalshi.co'],
  ] as const)('%s: when the recommended host does not resolve, requests go to the older one', async (_id, plugin, recommended, older) => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const unresolved = Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(recommended).hostname}`), { code: 'ENOTFOUND' });
    agent
      .get(recommended)
      .intercept({ path: () => true, method: () => true })
      .replyWithError(unresolved)
      .persist();
    agent
      .get(older)
      .intercept({ path: '/trade-api/v2/events/KX-1/metadata', method: 'GET' })
      .reply(200, { image_url: 'x' }, { headers: { 'content-type': 'application/json' } })
      .times(2);
    const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
    const adapter = plugin.create({ http, logger: silentLogger, clock: fixedClock(0), config: {} });
    await expect(adapter.fetchEventMetadata('kx-1')).resolves.toEqual({ image_url: 'x' });
    expect(http.fallbacks()).toEqual({ [plugin.id]: { [recommended]: older } });
    await expect(adapter.fetchEventMetadata('kx-1')).resolves.toEqual({ image_url: 'x' });
    agent.assertNoPendingInterceptors();
  });

  test('an empty fallback list turns the fallback off: the unresolved host is a NETWORK_ERROR', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const unresolved = Object.assign(new Error('getaddrinfo ENOTFOUND external-api.kalshi.com'), { code: 'ENOTFOUND' });
    agent
      .get('https://external-api.kalshi.com')
      .intercept({ path: () => true, method: () => true })
      .replyWithError(unresolved)
      .persist();
    const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
    const adapter = kalshiPlugin.create({ http, logger: silentLogger, clock: fixedClock(0), config: { hosts: { restFallbacks: [] } } });
    await expect(adapter.fetchEventMetadata('kx-1')).rejects.toMatchObject({ code: 'NETWORK_ERROR', detail: { cause: 'ENOTFOUND' } });
  });

  test('hosts can be overridden, and requests then go there', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://localhost:9901')
      .intercept({ path: '/kalshi/trade-api/v2/events/KX-1/metadata', method: 'GET' })
      .reply(200, { image_url: 'x' }, { headers: { 'content-type': 'application/json' } });
    const adapter = kalshiDemoPlugin.create(context({ hosts: { rest: 'http://localhost:9901/kalshi/trade-api/v2/' } }, agent));
    await expect(adapter.fetchEventMetadata('kx-1')).resolves.toEqual({ image_url: 'x' });
    expect(adapter.profile.hosts.web).toBe('https://demo.kalshi.co');
  });

  test('a bad configuration fails at creation, naming the field', () => {
    expect(() => kalshiPlugin.create(context({ pageSize: 500 }))).toThrow(AdapterPluginError);
    expect(() => kalshiPlugin.create(context({ pageSize: 500 }))).toThrow(/kalshi: invalid adapter configuration: "pageSize"/);
    expect(() => kalshiPlugin.create(context({ hosts: { rest: 'not a url' } }))).toThrow(/"hosts.rest"/);
  });
});
