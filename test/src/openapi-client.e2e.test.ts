import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, mockStreamingGateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * A client generated from the gateway's own /openapi.json, as users generate
 * one: the document passes an independent validator, openapi-typescript turns
 * it into types with the unified model's names, a small program using those
 * types through openapi-fetch type-checks under strict tsc, and the same
 * calls answer against the gateway on 127.0.0.1.
 */

const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
// Under the test package's node_modules, so the program resolves openapi-fetch as an installed client would.
const scratch = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));

/** The program a user writes against the generated types: a book's best bid, the Router's titles. */
const program = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

export const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1', headers: { authorization: 'Bearer key' } });

export async function bestBid(outcomeId: string): Promise<number | undefined> {
  const { data, error } = await client.GET('/api/{exchange}/fetchOrderBook', { params: { path: { exchange: 'mock' }, query: { outcomeId, limit: 5 } } });
  if (error) throw new Error(error.error.code);
  const book: components['schemas']['OrderBook'] | components['schemas']['OrderBook'][] = data.data;
  return Array.isArray(book) ? book[0]?.bids[0]?.price : book.bids[0]?.price;
}

export async function titles(): Promise<string[]> {
  const { data } = await client.GET('/v0/events', { params: { query: { limit: 2 } } });
  const events: Array<components['schemas']['Event']> = data?.data ?? [];
  return events.map((event) => event.title);
}
`;

let app: Gateway;
let outcomeId: string;
let dir: string;
beforeAll(async () => {
  ({ app, outcomeId } = await mockStreamingGateway());
  await mkdir(scratch, { recursive: true });
  dir = await mkdtemp(join(scratch, 'openapi-client-'));
});
afterAll(async () => {
  await app.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a client generated from /openapi.json', () => {
  test('validates, generates named types, type-checks, and calls the gateway', async () => {
    const document = (await (await fetch(`${app.server.info.uri}/openapi.json`)).json()) as Record<string, unknown>;
    const validation = await new Validator().validate(document as never);
    expect(validation.errors ?? []).toEqual([]);

    const types = astToString(await openapiTS(document as never));
    for (const name of ['Event', 'Market', 'Outcome', 'OrderBook', 'Trade', 'Order', 'Position', 'Balance', 'ErrorEnvelope'])
      expect(types).toContain(`${name}: {`);
    await writeFile(join(dir, 'api.ts'), types);
    await writeFile(join(dir, 'client.ts'), program);
    const checked = await promisify(execFile)(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'client.ts'],
      { cwd: dir },
    ).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('');

    // The same calls, at run time, against the gateway.
    const client = createClient({ baseUrl: app.server.info.uri, headers: { authorization: `Bearer ${apiKey}` } });
    const book = await client.GET(
      '/api/{exchange}/fetchOrderBook' as never,
      { params: { path: { exchange: 'mock' }, query: { outcomeId, limit: 5 } } } as never,
    );
    expect(book.response.status).toBe(200);
    expect((book.data as unknown as { data: { bids: Array<{ price: number }> } }).data.bids[0]!.price).toBeGreaterThan(0);
    const events = await client.GET('/v0/events' as never, { params: { query: { limit: 2 } } } as never);
    expect(events.response.status).toBe(200);
  }, 180_000);
});
