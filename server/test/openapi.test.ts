import { Validator } from '@seriousme/openapi-schema-validator';
import { coreMethods } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openApiDocument } from '../src/docs/openapi.js';
import { routerLimits } from '@predgate/catalog';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

interface Document {
  paths: Record<string, { parameters?: Array<{ name: string; schema: { enum?: string[] } }>; get?: Operation; post?: Operation }>;
}
interface Operation {
  summary: string;
  responses: Record<string, { content?: Record<string, { example?: { data: unknown } }> }>;
}

let app: TestApp;
let document: Document;
beforeAll(async () => {
  app = await testApp();
  const response = await app.server.inject({ url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = JSON.parse(response.payload) as Document;
});
afterAll(() => app.stop());

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document, served without an API key', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('lists every method exactly for the venues whose describe has it', async () => {
    for (const venue of app.venues.all()) {
      const { data } = JSON.parse((await app.call({ url: `/api/${venue.id}/describe` })).payload) as { data: { has: Record<string, unknown> } };
      for (const name of Object.keys(coreMethods)) {
        const path = document.paths[`/api/{exchange}/${name}`];
        const listed = path?.parameters?.find((parameter) => parameter.name === 'exchange')?.schema.enum ?? [];
        expect(listed.includes(venue.id), `${venue.id} ${name}`).toBe(data.has[name] !== false);
      }
    }
  });

  test('documents the Router, the archive files and the error codes beside the pass-through methods', () => {
    for (const path of ['/v0/events', '/v0/events/{id}', '/v0/status', '/archive/files', '/archive/files/{name}'])
      expect(document.paths[path], path).toBeDefined();
    // The Router's parameters are its route's validation schema, bounds included.
    const limit = (document.paths['/v0/events']!.get as unknown as { parameters: Array<{ name: string; schema: Record<string, unknown> }> }).parameters.find(
      (parameter) => parameter.name === 'limit',
    );
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: routerLimits.max, default: routerLimits.default });
  });

  test('documents GET only where the method list allows it, and every method’s doc line', () => {
    for (const [name, declaration] of Object.entries(coreMethods)) {
      const path = document.paths[`/api/{exchange}/${name}`];
      if (!path) continue;
      expect(path.get !== undefined, name).toBe(declaration.verbs.includes('GET'));
      expect(path.post?.summary).toBe(declaration.doc);
    }
  });

  test('is what a client generator can trust: servers, plain query parameters with real examples, named schemas, required members', async () => {
    const raw = document as unknown as {
      servers: unknown[];
      components: { schemas: Record<string, unknown> };
      paths: Record<
        string,
        Record<
          string,
          { parameters?: Array<Record<string, unknown>>; responses?: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }
        >
      >;
    };
    expect(raw.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const name of ['Event', 'Market', 'Outcome', 'OrderBook', 'Trade', 'Order', 'Position', 'Balance', 'ErrorEnvelope']) {
      expect(raw.components.schemas[name], name).toBeDefined();
    }
    const text = JSON.stringify(raw.paths);
    for (const name of ['Event', 'Market', 'OrderBook', 'Trade', 'Order', 'Position', 'Balance']) expect(text, name).toContain(`#/components/schemas/${name}"`);
    // A named schema is never repeated inline: an Event's markets refer to Market.
    expect(JSON.stringify(raw.components.schemas.Event)).toContain('#/components/schemas/Market');
    for (const [path, item] of Object.entries(raw.paths)) {
      for (const [verb, operation] of Object.entries(item)) {
        if (verb === 'parameters') continue;
        const names = (operation.parameters ?? []).map((parameter) => parameter.name);
        expect(new Set(names).size, `${verb} ${path} repeats a parameter`).toBe(names.length);
        for (const parameter of operation.parameters ?? []) expect(parameter.content, `${verb} ${path} ${String(parameter.name)}`).toBeUndefined();
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const schema = response.content?.['application/json']?.schema;
          if (schema?.type === 'object') expect(schema.required, `${verb} ${path} ${status}`).toBeDefined();
        }
      }
    }
    // The example id of a query parameter is one the gateway finds.
    const outcome = raw.paths['/api/{exchange}/fetchOrderBook']!.get!.parameters!.find((parameter) => parameter.name === 'outcomeId')!;
    expect(outcome.schema).toMatchObject({ type: 'string' });
    const book = await app.call({ url: `/api/mock/fetchOrderBook?outcomeId=${String(outcome.example)}` });
    expect(book.statusCode).toBe(200);
  });

  test('its examples are real answers of the mock venue', async () => {
    const example = document.paths['/api/{exchange}/fetchEvents']!.post!.responses['200']!.content!['application/json']!.example!;
    const live = JSON.parse((await app.call({ url: '/api/mock/fetchEvents?limit=1' })).payload) as { data: unknown };
    expect(example.data).toEqual(live.data);
  });

  test('a method’s doc line, changed in the method list, changes the document with nothing else edited', () => {
    const declaration = coreMethods.fetchTrades as { doc: string };
    const original = declaration.doc;
    try {
      declaration.doc = 'Prints on the tape, as the venue reports them.';
      const regenerated = openApiDocument(app.venues.all(), app.server.table()) as unknown as Document;
      expect(regenerated.paths['/api/{exchange}/fetchTrades']!.post!.summary).toBe('Prints on the tape, as the venue reports them.');
    } finally {
      declaration.doc = original;
    }
  });
});

describe('/docs', () => {
  test('serves the reference page and the renderer from our own origin, without an API key', async () => {
    const page = await app.server.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.payload).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page.payload).not.toMatch(/https?:\/\//);
    const bundle = await app.server.inject({ url: '/docs/assets/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    expect((await app.server.inject({ url: '/docs/assets/..%2Fpackage.json' })).statusCode).toBe(404);
  });

  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'])(
    '/docs/assets/%s is a plain 404, not an object member',
    async (name) => {
      const response = await app.server.inject({ url: `/docs/assets/${name}` });
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.payload)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(response.payload).not.toContain('node_modules');
    },
  );
});

describe('GET /', () => {
  test('answers a small landing without a key: links to /docs, /openapi.json and /health, as JSON or, for a browser, a page', async () => {
    const json = await app.server.inject({ url: '/' });
    expect(json.statusCode).toBe(200);
    expect(JSON.parse(json.payload)).toMatchObject({ name: 'Predgate', links: { docs: '/docs', openapi: '/openapi.json', health: '/health' } });
    const page = await app.server.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const link of ['/docs', '/openapi.json', '/health']) expect(page.payload).toContain(`href="${link}"`);
    // Nothing of the deployment in it: no key, no venue, no path on disk.
    for (const answer of [json.payload, page.payload]) {
      expect(answer).not.toMatch(/pg_|test-key|mock|\/tmp|\.predgate/);
    }
  });
});
