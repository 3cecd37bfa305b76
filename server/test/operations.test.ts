import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.stop());

describe('operations', () => {
  test('/ready reports the loaded venues', async () => {
    const response = await app.call({ url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.result).toEqual({ status: 'ready', venues: ['mock', 'router'], sweeps: { mock: 'pending' } });
    await app.catalog.sweep('mock');
    expect((await app.call({ url: '/ready' })).result).toMatchObject({ sweeps: { mock: 'fresh' } });
  });

  test('/ready and /metrics need a key', async () => {
    expect((await app.server.inject({ url: '/ready' })).statusCode).toBe(401);
    expect((await app.server.inject({ url: '/metrics' })).statusCode).toBe(401);
  });

  test('/metrics counts requests by venue, method and status, and adapter calls by venue', async () => {
    await app.call({ url: '/api/mock/fetchEvents?limit=1' });
    await app.call({ url: '/api/mock/fetchOrder?orderId=missing' });
    await app.call({ url: '/api/not-a-venue/whatever' });
    const response = await app.call({ url: '/metrics' });
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.payload;
    expect(text).toMatch(/predgate_http_requests_total\{exchange="mock",method="fetchEvents",status="200"\} 1/);
    expect(text).toMatch(/predgate_http_requests_total\{exchange="mock",method="fetchOrder",status="404"\} 1/);
    expect(text).toMatch(/predgate_http_requests_total\{exchange="unknown",method="unknown",status="404"\} 1/);
    expect(text).toMatch(/predgate_http_request_duration_seconds_bucket\{le="0.01",exchange="mock",method="fetchEvents",status="200"\}/);
    expect(text).toMatch(/predgate_adapter_call_duration_seconds_count\{venue="mock",method="fetchOrder"\} 1/);
    expect(text).toMatch(/predgate_adapter_errors_total\{venue="mock",method="fetchOrder",code="ORDER_NOT_FOUND"\} 1/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('graceful shutdown', () => {
  // At debug level hapi answers every request; at info the lean path in front of it answers this one.
  test.each(['debug', 'info'])('in-flight requests finish before the gateway stops (log level %s)', async (logLevel) => {
    const slow = await testApp({
      manifest: { venues: [{ id: 'acme', package: 'predgate-adapter-acme', version: '1.0.0', config: {} }] },
      searchRoots: [thirdPartyProject],
      config: { port: 0 },
      logLevel,
    });
    const acme = slow.venues.get('acme')!.shared as { fetchEvents(): Promise<unknown> };
    const original = acme.fetchEvents.bind(acme);
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      acme.fetchEvents = async () => {
        resolve();
        await new Promise<void>((resume) => (release = resume));
        return original();
      };
    });
    await slow.server.start();
    const inFlight = request(`${slow.server.info.uri}/api/acme/fetchEvents`, { headers: { authorization: `Bearer ${apiKey}` } });
    await started;
    const stopping = slow.stop();
    release();
    const response = await inFlight;
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toMatchObject({ success: true, data: [{ id: 'acme-1' }] });
    await stopping;
    await expect(request(`${slow.server.info.uri}/health`)).rejects.toThrow();
  });
});
