import type { RequestRoute } from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { maxJsonDepth, nestsDeeperThan } from '../src/json-depth.js';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.stop());

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Values for the path parameters of the POST routes, so each route is reached as a client would reach it. */
const pathValues: Record<string, string> = { exchange: 'mock', method: 'fetchEvents' };
const samplePaths = ['/api/mock/fetchEvents', '/api/router/fetchEvents', '/api/mock/filterEvents', '/api/mock/watchOrderBook', '/api/mock/createOrder'];

/** Every POST route that parses its body, with its path parameters filled in. */
function postRoutes(): string[] {
  return app.server
    .table()
    .filter((route: RequestRoute) => route.method === 'post' && route.settings.payload?.parse === true)
    .map((route: RequestRoute) => route.path.replace(/\{(\w+)\??\}/g, (_match, name: string) => pathValues[name] ?? 'x'));
}

describe(`a JSON body nested deeper than ${maxJsonDepth} levels`, () => {
  const bodies = {
    'arrays 10,000 deep': arrays(10_000),
    'objects 10,000 deep': objects(10_000),
    'arrays 10,000 deep as args': `{"args":${arrays(10_000)}}`,
    'objects 10,000 deep under __proto__': `{"kwargs":{"__proto__":${objects(10_000)}}}`,
    [`arrays ${maxJsonDepth + 1} deep as args`]: `{"args":${arrays(maxJsonDepth)}}`,
  };

  test.each(Object.entries(bodies))('%s is a 400 VALIDATION_ERROR on every POST route', async (_name, payload) => {
    const paths = [...new Set([...postRoutes(), ...samplePaths])];
    expect(paths.length).toBeGreaterThan(0);
    for (const url of paths) {
      const response = await app.call({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
      // A route that takes only small bodies refuses a large one for its size (413) before reading it; never a 500.
      expect({ url, status: response.statusCode }).toEqual({ url, status: payload.length > 16 * 1024 && response.statusCode === 413 ? 413 : 400 });
      if (response.statusCode === 413) continue;
      // The pass-through's envelope has `success`, the Router's does not; both carry the error.
      const body = JSON.parse(response.payload) as { error: { code: string; message: string } };
      // A body with a __proto__ key is refused by hapi's parser before its depth is looked at; either refusal is a 400.
      expect(body.error.code).toMatch(/^(VALIDATION_ERROR|BAD_REQUEST)$/);
      if (!payload.includes('__proto__')) expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', detail: { maxDepth: maxJsonDepth } });
    }
  });

  test(`a body exactly ${maxJsonDepth} levels deep goes on to the method's own validation`, async () => {
    const kwargs = { orderBook: { bids: [], asks: [] }, side: 'buy', amount: 1 };
    const padded = JSON.stringify({ kwargs, note: JSON.parse(arrays(maxJsonDepth - 1)) as unknown });
    const response = await app.call({ method: 'POST', url: '/api/mock/getExecutionPrice', payload: padded, headers: { 'content-type': 'application/json' } });
    // The method itself reads the body and names the member it does not take: the depth check let it through.
    expect(JSON.parse(response.payload)).toMatchObject({ error: { code: 'VALIDATION_ERROR', detail: { method: 'getExecutionPrice', argument: 'note' } } });
  });
});

describe('nestsDeeperThan', () => {
  test('counts arrays and objects, not scalars', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan('[[[]]]', 1)).toBe(false);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestsDeeperThan([1, [2], { c: [3, [4]] }], 4)).toBe(false);
    expect(nestsDeeperThan([1, [2], { c: [3, [4]] }], 3)).toBe(true);
  });
});
