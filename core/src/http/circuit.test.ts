import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import type { PredgateError } from '../errors.js';
import { createHttpClientFactory } from './venue-http-client.js';

const origin = 'https://venue.test';

function venue(circuit = { volumeThreshold: 3, resetMs: 150 }) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
  return { pool: agent.get(origin), http, client: http({ venue: 'v', circuit }) };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as PredgateError,
  );

describe('the circuit breaker of a venue', () => {
  test('opens after repeated venue failures: calls are refused at once, retryable, with retryAfter', async () => {
    const { pool, http, client } = venue();
    let served = 0;
    pool
      .intercept({ path: '/book', method: 'GET' })
      .reply(() => ((served += 1), { statusCode: 503, data: 'down' }))
      .persist();
    for (let index = 0; index < 3; index += 1) expect((await failure(client.request({ url: `${origin}/book` })))?.code).toBe('EXCHANGE_NOT_AVAILABLE');
    expect(client.circuit.state).toBe('open');
    const refused = await failure(client.request({ url: `${origin}/book` }));
    expect(served).toBe(3);
    expect(refused).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true, detail: { circuit: 'open', retryAfter: 1 } });
    expect(http.circuits()).toEqual({ v: { state: 'open', retryAfter: 1 } });
    await http.close();
  });

  test('lets one call through after the reset time, and closes when the venue is back', async () => {
    const { pool, http, client } = venue();
    pool.intercept({ path: '/book', method: 'GET' }).reply(503, 'down').times(3);
    pool.intercept({ path: '/book', method: 'GET' }).reply(200, { ok: true });
    for (let index = 0; index < 3; index += 1) await failure(client.request({ url: `${origin}/book` }));
    expect(client.circuit.state).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.circuit.state).toBe('half-open');
    await expect(client.json({ url: `${origin}/book` })).resolves.toEqual({ ok: true });
    expect(client.circuit.state).toBe('closed');
    await http.close();
  });

  test('answers that are the caller’s business (404, 400, 401) never open it', async () => {
    const { pool, http, client } = venue();
    pool.intercept({ path: '/missing', method: 'GET' }).reply(404, { message: 'no such market' }).persist();
    for (let index = 0; index < 6; index += 1) expect((await failure(client.request({ url: `${origin}/missing` })))?.code).toBe('NOT_FOUND');
    expect(client.circuit.state).toBe('closed');
    await http.close();
  });
});
