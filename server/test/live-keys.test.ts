import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { doubleAndRealServer } from '../../catalog/test/mongo-wire/harness.js';
import { MongoCatalogStore } from '@predgate/catalog';
import type { ServerConfig } from '../src/config.js';
import { tokens } from '../src/container.js';
import { withKeys } from '../src/keys/commands.js';
import { reloadedUntil, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

function withDatabase(uri: string, name: string): string {
  const url = new URL(uri);
  url.pathname = `/${name}`;
  return url.toString();
}

let databases = 0;
const [onDouble, onRealServer] = doubleAndRealServer('live keys');

describe.each([
  { where: 'the keys file', catalogUrl: () => undefined, skip: false },
  ...[onDouble!, onRealServer!].map((target) => ({
    where: `MongoDB, on ${target.where}`,
    catalogUrl: () => withDatabase(target.uri(), `predgate_keys_${process.pid}_${(databases += 1)}`),
    skip: target.skip,
  })),
])('keys in $where take effect on a running gateway', ({ catalogUrl, skip }) => {
  let app: TestApp;
  let config: ServerConfig;
  beforeAll(async () => {
    if (skip) return;
    const url = catalogUrl();
    app = await testApp({ config: url ? { catalogUrl: url } : {} });
    config = app.container.resolve(tokens.config);
  });
  afterAll(async () => {
    if (skip) return;
    // The test's own database on a shared server is left as it was found.
    if (app.catalog.store instanceof MongoCatalogStore) await app.catalog.store.database.dropDatabase();
    await app.stop();
  });
  const fetchEvents = (key: string) => app.server.inject({ url: '/api/mock/fetchEvents?limit=1', headers: { authorization: `Bearer ${key}` } });

  test.skipIf(skip)('a key created with `predgate keys create` is accepted, and refused once revoked with `predgate keys revoke`', async () => {
    const { key, record } = await withKeys(config, (keys) => keys.create('made while serving'));
    await reloadedUntil(app.keys, () => app.keys.verify(key) !== undefined);
    expect((await fetchEvents(key)).statusCode).toBe(200);

    await withKeys(config, (keys) => keys.revoke(record.id));
    await reloadedUntil(app.keys, () => app.keys.verify(key) === undefined);
    const refused = await fetchEvents(key);
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.payload)).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
  });

  test.skipIf(skip)('a rotated key is refused and its replacement accepted', async () => {
    const old = await withKeys(config, (keys) => keys.create('rotated'));
    await reloadedUntil(app.keys, () => app.keys.verify(old.key) !== undefined);
    const rotated = await withKeys(config, (keys) => keys.rotate(old.record.id));
    await reloadedUntil(app.keys, () => app.keys.verify(old.key) === undefined && app.keys.verify(rotated!.key) !== undefined);
    expect((await fetchEvents(old.key)).statusCode).toBe(401);
    expect((await fetchEvents(rotated!.key)).statusCode).toBe(200);
  });
});

describe('a revoked key on an open /ws socket', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ config: { port: 0, host: '127.0.0.1' } });
    await app.server.start();
  });
  afterAll(() => app.stop());

  test('is closed with 1008 once the revocation is seen, and a new upgrade with it is refused', async () => {
    const config = app.container.resolve(tokens.config);
    const { key, record } = await withKeys(config, (keys) => keys.create('streaming'));
    await reloadedUntil(app.keys, () => app.keys.verify(key) !== undefined);
    const socket = new WebSocket(`${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${key}`);
    await once(socket, 'open');
    const closed = once(socket, 'close');
    await withKeys(config, (keys) => keys.revoke(record.id));
    const [code, reason] = (await closed) as [number, Buffer];
    expect(code).toBe(1008);
    expect(reason.toString()).toBe('API key revoked');
    const again = new WebSocket(`${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${key}`);
    again.on('error', () => undefined);
    const [, response] = (await once(again, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(401);
  });
});
