import { join } from 'node:path';
import { fixedClock } from '@predgate/core';
import type { Event } from '@predgate/core';
import { loadFixtureCases, replayAgent } from '@predgate/core/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { gateway, workspace } from './support.js';
import type { Gateway } from './support.js';

/**
 * A new venue, built from the template in its own folder, joins a deployment
 * by its manifest entry alone: nothing central (server, catalog, core, docs)
 * names it, yet it is served live, swept into the catalog, found by the
 * Router, listed in /v0/status and in the OpenAPI document.
 */
let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: {
      venues: [
        { id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 5 } },
        { id: 'template', package: '@predgate/adapter-template', version: '^0.1.0', config: {} },
      ],
    },
    dispatcher: replayAgent(loadFixtureCases(join(workspace, 'adapters', 'template', 'test', 'fixtures'))),
    clock: fixedClock(1_785_734_468_581),
    config: { catalog: { intervalSeconds: 60, freshForSeconds: 120, concurrency: 1, pageSize: 10 } },
  });
});
afterAll(() => app.stop());

test('a venue added to the manifest alone is served live, swept, searched by the Router, and documented', async () => {
  const { data: live } = await app.json<{ data: Event[] }>('/api/template/fetchEvents?limit=10');
  expect(live.map((event) => event.id)).toEqual(['ev-101', 'ev-102']);

  expect(await app.catalog.sweep('template')).toMatchObject({ venue: 'template', events: 2 });
  const { data: found } = await app.json<{ data: Array<{ sourceMetadata: { venueEventId: string } }> }>(
    '/v0/events?sourceExchange=template&category=Economics',
  );
  expect(found.map((event) => event.sourceMetadata.venueEventId)).toEqual(['ev-101']);

  const { data: status } = await app.json<{ data: Array<{ venue: string }> }>('/v0/status');
  expect(status.map((venue) => venue.venue)).toEqual(['mock', 'template']);

  const document = await app.json<{ paths: Record<string, { parameters: Array<{ name: string; schema: { enum?: string[] } }> }> }>('/openapi.json');
  const exchange = document.paths['/api/{exchange}/fetchEvents']!.parameters.find((parameter) => parameter.name === 'exchange')!;
  // The Router answers pmxt clients at /api/router/* too.
  expect(exchange.schema.enum).toEqual(['mock', 'template', 'router']);
});
