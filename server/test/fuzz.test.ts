import { coreMethods, errorCodes } from '@predgate/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * Generated bad and odd requests against every route, derived from the core
 * method list (a method added there is fuzzed here with no new test code):
 * every answer is our envelope with one of the documented codes and the
 * matching status, nothing reaches INTERNAL_ERROR, and no secret sent in a
 * header or a body ever appears in a log line.
 */
const secret = 'sk-fuzz-9f1c2e7a-never-log-me';
const methodNames = Object.keys(coreMethods);
const argumentNames = [...new Set(Object.values(coreMethods).flatMap((declaration) => declaration.args.map((declared) => declared.name)))];
const paramKeys = [
  'query',
  'limit',
  'offset',
  'cursor',
  'status',
  'eventId',
  'slug',
  'marketId',
  'outcomeId',
  'category',
  'tags',
  'sort',
  'since',
  'until',
  'side',
  'outcome',
  'resolution',
  'sourceExchange',
  'filter',
];

const oddValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '__proto__',
    'constructor',
    '%00',
    '../../etc/passwd',
    '<script>',
    '😀'.repeat(30),
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2147483647, -1, 0, Number.MAX_SAFE_INTEGER + 2, 1e21),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
  fc.string({ minLength: 300, maxLength: 3000 }),
);
const params = fc.dictionary(fc.oneof(fc.constantFrom(...paramKeys, ...argumentNames), fc.string({ maxLength: 12 })), oddValue, { maxKeys: 6 });

/** A query string of generated members, values as a client would send them (JSON for anything not a string). */
const queryString = (query: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : (JSON.stringify(value) ?? '')]),
  ).toString();

const exchange = fc.constantFrom('mock', 'router', 'nope', '', 'MOCK', '%2e%2e', 'm'.repeat(300));
const method = fc.oneof(fc.constantFrom(...methodNames), fc.string({ maxLength: 20 }));

const request = fc.oneof(
  // GET with a generated query string.
  fc.record({ verb: fc.constant('GET'), exchange, method, query: params }).map(({ exchange: venue, method: name, query }) => ({
    method: 'GET',
    url: `/api/${encodeURIComponent(venue)}/${encodeURIComponent(name)}?${queryString(query)}`,
  })),
  // POST with positional arguments, named ones, a flat object, or not JSON at all.
  fc
    .record({
      exchange,
      method,
      body: fc.oneof(
        fc.record({ args: fc.array(fc.oneof(oddValue, params), { maxLength: 4 }), credentials: fc.constant({ apiKey: secret, privateKey: secret }) }),
        fc.record({ kwargs: params }),
        params,
        fc.anything({ maxDepth: 3 }),
      ),
    })
    .map(({ exchange: venue, method: name, body }) => ({
      method: 'POST',
      url: `/api/${encodeURIComponent(venue)}/${encodeURIComponent(name)}`,
      payload: JSON.stringify(body) ?? 'null',
    })),
  fc.record({ exchange, method, text: fc.string({ maxLength: 200 }) }).map(({ exchange: venue, method: name, text }) => ({
    method: 'POST',
    url: `/api/${encodeURIComponent(venue)}/${encodeURIComponent(name)}`,
    payload: `{${text}`,
  })),
  // The Router's routes, and paths and verbs nothing serves.
  params.map((query) => ({ method: 'GET', url: `/v0/events?${queryString(query)}` })),
  fc.string({ maxLength: 80 }).map((id) => ({ method: 'GET', url: `/v0/events/${encodeURIComponent(id)}` })),
  fc
    .record({ verb: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'GET', 'POST'), path: fc.webPath() })
    .map(({ verb, path }) => ({ method: verb, url: path.startsWith('/') ? path : `/${path}` })),
);

const allowedStatuses = new Set([200, 400, 401, 403, 404, 405, 413, 415, 422, 429, 501, 503]);

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ config: { rateLimit: { requests: 0, windowSeconds: 60 } } });
  await app.catalog.sweep('mock');
});
afterAll(() => app.stop());

describe('fuzzing every route from the method list', () => {
  test('every generated request gets the envelope, a documented code and its status; nothing crashes or leaks', async () => {
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async (generated, authorized) => {
        const response = await app.server.inject({
          ...generated,
          headers: { 'content-type': 'application/json', ...(authorized ? { authorization: `Bearer ${apiKey}` } : { authorization: `Bearer ${secret}` }) },
        });
        expect(allowedStatuses.has(response.statusCode), `${generated.method} ${generated.url}: ${response.statusCode} ${response.payload.slice(0, 200)}`).toBe(
          true,
        );
        if (generated.url.startsWith('/docs') || generated.url.startsWith('/openapi') || response.statusCode === 200) return;
        const body = JSON.parse(response.payload) as { success?: boolean; error: { code: string; message: string } };
        expect(Object.keys(errorCodes)).toContain(body.error.code);
        expect(body.error.code).not.toBe('INTERNAL_ERROR');
        expect(
          errorCodes[body.error.code as keyof typeof errorCodes].status === response.statusCode || [405, 413, 415, 431].includes(response.statusCode),
        ).toBe(true);
        expect(response.payload).not.toContain(secret);
      }),
      { numRuns: 600, seed: 20261124 },
    );
    expect(app.logs.join('\n')).not.toContain(secret);
  }, 60_000);
});
