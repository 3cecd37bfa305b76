import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { KeyFile } from './key-file.js';
import { KeyStore } from './key-store.js';
import type { KeyStoreOptions } from './key-store.js';
import { reloadedUntil } from '../../test/helpers.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'predgate-keys-'));
const opened: KeyStore[] = [];
const open = async (dir: string, options: KeyStoreOptions = {}) => {
  const store = await KeyStore.open(new KeyFile(dir), options);
  opened.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe('the key store', () => {
  test('keeps only SHA-256 digests, in memory and on disk', async () => {
    const store = await open(dataDir(), { environmentKeys: ['environment-key-0123456789'] });
    const { key, record } = await store.create('ci');
    const file = readFileSync(store.location, 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain(record.hash);
    expect(JSON.stringify(store.list())).not.toContain(key);
    expect(JSON.stringify(store.list())).not.toContain('environment-key-0123456789');
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(store.location).mode & 0o777).toBe(0o600);
  });

  test('verifies file and environment keys, and nothing else', async () => {
    const dir = dataDir();
    const { key } = await (await open(dir)).create();
    const reopened = await open(dir, { environmentKeys: ['environment-key-0123456789'] });
    expect(reopened.verify(key)?.source).toBe('managed');
    expect(reopened.verify('environment-key-0123456789')?.id).toBe('env-1');
    expect(reopened.verify(`${key}x`)).toBeUndefined();
    expect(reopened.verify('')).toBeUndefined();
  });

  test('revokes file keys by id, across reopenings', async () => {
    const dir = dataDir();
    const store = await open(dir);
    const first = await store.create('a');
    const second = await store.create('b');
    expect(await store.revoke(first.record.id)).toBe(true);
    expect(await store.revoke(first.record.id)).toBe(false);
    const reopened = await open(dir);
    expect(reopened.verify(first.key)).toBeUndefined();
    expect(reopened.verify(second.key)?.label).toBe('b');
  });

  test('rotating a key makes a new one with its label and revokes the old', async () => {
    const store = await open(dataDir());
    const old = await store.create('dashboard');
    const rotated = await store.rotate(old.record.id);
    expect(rotated?.record.label).toBe('dashboard');
    expect(store.verify(old.key)).toBeUndefined();
    expect(store.verify(rotated!.key)?.id).toBe(rotated!.record.id);
    expect(await store.rotate('key_absent')).toBeUndefined();
  });

  test('environment keys cannot be revoked from the file', async () => {
    const store = await open(dataDir(), { environmentKeys: ['environment-key-0123456789'] });
    expect(await store.revoke('env-1')).toBe(false);
    expect(store.size).toBe(1);
  });

  test('a live store sees keys created and revoked by another process', async () => {
    const dir = dataDir();
    const gateway = await open(dir, { live: true });
    const cli = await open(dir);
    const created = await cli.create('from the cli');
    await reloadedUntil(gateway, () => gateway.verify(created.key) !== undefined);
    await cli.revoke(created.record.id);
    await reloadedUntil(gateway, () => gateway.verify(created.key) === undefined);
    expect(gateway.size).toBe(0);
  });

  test('a file that cannot be read keeps the previous keys, with one warning until it is readable again', async () => {
    const dir = dataDir();
    const warnings: string[] = [];
    const infos: string[] = [];
    const logger = {
      warn: (_fields: object, message: string) => void warnings.push(message),
      info: (_fields: object, message: string) => void infos.push(message),
    };
    const gateway = await open(dir, { live: true, logger: logger as unknown as KeyStoreOptions['logger'] });
    const { key } = await (await open(dir)).create();
    await reloadedUntil(gateway, () => gateway.verify(key) !== undefined);
    const good = readFileSync(join(dir, 'api-keys.json'), 'utf8');

    const failed = new Promise<void>((resolve) => gateway.once('reloadFailed', () => resolve()));
    writeFileSync(join(dir, 'api-keys.json'), good.slice(0, good.length / 2));
    await failed;
    await gateway.reload();
    expect(gateway.verify(key)).toBeDefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('previous keys stay in force');

    writeFileSync(join(dir, 'api-keys.json'), JSON.stringify({ keys: [{ id: 'key_1', hash: 'not a digest', createdAt: new Date().toISOString() }] }));
    await gateway.reload();
    expect(gateway.verify(key)).toBeDefined();
    expect(warnings).toHaveLength(2);

    writeFileSync(join(dir, 'api-keys.json'), good);
    await reloadedUntil(gateway, () => infos.length === 1);
    expect(gateway.verify(key)).toBeDefined();
  });
});
