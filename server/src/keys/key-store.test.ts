import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KeyStore } from './key-store.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'predgate-keys-'));

describe('the key store', () => {
  test('keeps only SHA-256 digests, in memory and on disk', () => {
    const dir = dataDir();
    const store = KeyStore.open(dir, ['environment-key-0123456789']);
    const { key, record } = store.create('ci');
    const file = readFileSync(store.path, 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain(record.hash);
    expect(JSON.stringify(store.list())).not.toContain(key);
    expect(JSON.stringify(store.list())).not.toContain('environment-key-0123456789');
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  test('verifies file and environment keys, and nothing else', () => {
    const dir = dataDir();
    const { key } = KeyStore.open(dir).create();
    const reopened = KeyStore.open(dir, ['environment-key-0123456789']);
    expect(reopened.verify(key)?.source).toBe('file');
    expect(reopened.verify('environment-key-0123456789')?.id).toBe('env-1');
    expect(reopened.verify(`${key}x`)).toBeUndefined();
    expect(reopened.verify('')).toBeUndefined();
  });

  test('revokes file keys by id, across reopenings', () => {
    const dir = dataDir();
    const store = KeyStore.open(dir);
    const first = store.create('a');
    const second = store.create('b');
    expect(store.revoke(first.record.id)).toBe(true);
    expect(store.revoke(first.record.id)).toBe(false);
    const reopened = KeyStore.open(dir);
    expect(reopened.verify(first.key)).toBeUndefined();
    expect(reopened.verify(second.key)?.label).toBe('b');
  });

  test('environment keys cannot be revoked from the file', () => {
    const store = KeyStore.open(dataDir(), ['environment-key-0123456789']);
    expect(store.revoke('env-1')).toBe(false);
    expect(store.size).toBe(1);
  });
});
