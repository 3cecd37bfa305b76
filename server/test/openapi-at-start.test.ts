import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type * as openApi from '../src/docs/openapi.js';
import { openApiDocument } from '../src/docs/openapi.js';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

// The builder, counted: the document must be built while the app starts, never on a request.
vi.mock('../src/docs/openapi.js', async (importOriginal) => {
  const actual = await importOriginal<typeof openApi>();
  return { ...actual, openApiDocument: vi.fn(actual.openApiDocument) };
});

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ openApiAtStart: true });
}, 60_000);
afterAll(() => app.stop());

test('/openapi.json is built while the gateway starts, and its requests only send it', async () => {
  expect(openApiDocument).toHaveBeenCalledTimes(1);
  for (let request = 0; request < 2; request += 1) {
    const response = await app.server.inject({ url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.payload)).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  }
  expect(openApiDocument).toHaveBeenCalledTimes(1);
});

test('a gateway built without it (tests) builds it once, on the first request', async () => {
  const lazy = await testApp();
  try {
    expect(openApiDocument).toHaveBeenCalledTimes(1);
    expect((await lazy.server.inject({ url: '/openapi.json' })).statusCode).toBe(200);
    expect((await lazy.server.inject({ url: '/openapi.json' })).statusCode).toBe(200);
    expect(openApiDocument).toHaveBeenCalledTimes(2);
  } finally {
    await lazy.stop();
  }
});
