import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * A local fake Polymarket on 127.0.0.1 misbehaving in each way venues do.
 * Every scenario runs on a fresh gateway (so one scenario's failures do not
 * open the venue's circuit for the next) and asserts the unified error, that
 * only a stalled venue waits out the request budget (every other failure is
 * answered on its own, so its detail has no `budgetSeconds`), and that the
 * Router kept serving meanwhile. Nothing is measured against the wall clock,
 * which a busy machine stretches.
 */
type Mode = (request: IncomingMessage, response: ServerResponse) => void;

let mode: Mode = () => {};
let hits = 0;
let fake: Server;
let origin: string;
beforeAll(async () => {
  fake = createServer((request, response) => {
    hits += 1;
    mode(request, response);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  fake.closeAllConnections();
  await new Promise((resolve) => fake.close(resolve));
});

const json =
  (status: number, body: string, headers: Record<string, string> = {}): Mode =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  };

const scenarios: Array<{ name: string; mode: Mode; code: string; detail?: Record<string, unknown> }> = [
  { name: 'stalls without answering', mode: () => {}, code: 'EXCHANGE_NOT_AVAILABLE', detail: { budgetSeconds: 4 } },
  {
    name: 'answers 503',
    mode: json(503, '{"error":"maintenance"}'),
    code: 'EXCHANGE_NOT_AVAILABLE',
    detail: { status: 503, venueMessage: 'maintenance' },
  },
  {
    name: 'answers 429 with Retry-After',
    mode: json(429, '{"error":"slow down"}', { 'retry-after': '1' }),
    code: 'RATE_LIMIT_EXCEEDED',
    detail: { retryAfter: 1 },
  },
  { name: 'answers invalid JSON', mode: json(200, '{"events": ['), code: 'EXCHANGE_NOT_AVAILABLE' },
  {
    name: 'cuts the body short',
    mode: (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      response.write('[{"id":"1",', () => response.socket?.end());
    },
    code: 'NETWORK_ERROR',
  },
  { name: 'resets the connection', mode: (request) => request.socket.destroy(), code: 'NETWORK_ERROR' },
  {
    name: 'answers an HTML page with a 200',
    mode: (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Just a moment...</body></html>'),
    code: 'EXCHANGE_NOT_AVAILABLE',
    detail: { contentType: 'text/html' },
  },
  {
    name: 'answers JSON of the wrong shape',
    mode: json(200, '{"events":"none today"}'),
    code: 'EXCHANGE_NOT_AVAILABLE',
    detail: { endpoint: 'GET /events', field: '(body)', drift: true },
  },
  {
    name: 'answers a 20 MB body',
    mode: json(200, `[${'{"id":"1","title":"x"},'.repeat(900_000)}{"id":"2"}]`),
    code: 'EXCHANGE_NOT_AVAILABLE',
    detail: { maxBodyBytes: 8 * 1024 * 1024 },
  },
];

/** A stall waits out the request budget, so it gets a short one; every other scenario a budget no busy machine overruns. */
async function fresh(requestBudgetSeconds: number): Promise<Gateway> {
  const app = await gateway({
    manifest: {
      venues: [
        { id: 'polymarket', package: '@predgate/adapter-polymarket', version: '^0.1.0', config: { hosts: { gamma: origin, clob: origin, data: origin } } },
        { id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 40 } },
      ],
    },
    config: { requestBudgetSeconds },
  });
  await app.catalog.sweep('mock');
  return app;
}

describe('a venue misbehaving never hangs, crashes or fools the gateway', () => {
  test.each(scenarios)(
    'the venue $name: $code within its budget, the Router serving meanwhile',
    async (scenario) => {
      const app = await fresh(typeof scenario.detail?.budgetSeconds === 'number' ? scenario.detail.budgetSeconds : 60);
      try {
        mode = scenario.mode;
        const pending = app.call({ url: '/api/polymarket/fetchEvents?limit=5' });
        const router = await app.call({ url: '/v0/events?limit=5' });
        expect(router.statusCode).toBe(200);
        const response = await pending;
        const body = JSON.parse(response.payload) as { success: boolean; error: { code: string; detail: Record<string, unknown>; exchange: string } };
        expect(body.success).toBe(false);
        expect(body.error.code, response.payload.slice(0, 300)).toBe(scenario.code);
        expect(body.error.exchange).toBe('polymarket');
        expect(response.statusCode).toBeGreaterThanOrEqual(429);
        if (scenario.detail) expect(body.error.detail).toMatchObject(scenario.detail);
        // Only a stall is cut by the budget; every other failure is the venue's own, answered before it.
        if (!scenario.detail?.budgetSeconds) expect(body.error.detail?.budgetSeconds).toBeUndefined();
      } finally {
        await app.stop();
      }
    },
    120_000,
  );

  test('a venue that keeps failing trips its circuit: calls answer at once without reaching it, and /v0/status says so', async () => {
    const app = await fresh(60);
    try {
      mode = (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>down</html>');
      for (let call = 0; call < 10; call += 1) await app.call({ url: '/api/polymarket/fetchEvents?limit=5' });
      const before = hits;
      const refused = JSON.parse((await app.call({ url: '/api/polymarket/fetchEvents?limit=5' })).payload) as {
        error: { code: string; retryable: boolean; detail: Record<string, unknown> };
      };
      expect(hits).toBe(before);
      expect(refused.error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true, detail: { circuit: 'open', retryAfter: expect.any(Number) } });
      const status = await app.json<{ data: Array<{ venue: string; circuit: { state: string } }> }>('/v0/status');
      expect(status.data.find((venue) => venue.venue === 'polymarket')?.circuit.state).toBe('open');
      expect((await app.call({ url: '/metrics' })).payload).toContain('predgate_venue_circuit_open{venue="polymarket"} 1');
      expect((await app.call({ url: '/v0/events?limit=1' })).statusCode).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
