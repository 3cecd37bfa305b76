import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration', () => {
  test('defaults', () => {
    const config = loadConfig({ env: {}, cwd: '/srv/gateway' });
    expect(config).toMatchObject({
      port: 3847,
      host: '127.0.0.1',
      dataDir: '/srv/gateway/.predgate',
      apiKeys: [],
      logLevel: 'info',
      rateLimit: { requests: 6000, windowSeconds: 60 },
    });
    expect(config.catalogUrl).toBeUndefined();
    expect(config.manifest).toBeUndefined();
  });

  test('from the environment, under the stable names', () => {
    const config = loadConfig({
      cwd: '/srv',
      env: {
        PORT: '8080',
        HOST: '0.0.0.0',
        PREDGATE_DATA_DIR: 'data',
        PREDGATE_MANIFEST: 'deploy/manifest.json',
        PREDGATE_API_KEYS: 'first-key-0123456789, second-key-0123456789',
        PREDGATE_CATALOG_URL: 'mongodb://db:27017/predgate',
        LOG_LEVEL: 'warn',
      },
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/data',
      manifest: '/srv/deploy/manifest.json',
      apiKeys: ['first-key-0123456789', 'second-key-0123456789'],
      catalogUrl: 'mongodb://db:27017/predgate',
      logLevel: 'warn',
    });
  });

  test('from a file, the environment winning', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'predgate-config-')), 'predgate.json');
    writeFileSync(file, JSON.stringify({ port: 9000, logLevel: 'debug', rateLimit: { requests: 10 } }));
    expect(loadConfig({ file, env: { LOG_LEVEL: 'error' } })).toMatchObject({ port: 9000, logLevel: 'error', rateLimit: { requests: 10, windowSeconds: 60 } });
  });

  test.each([
    [{ PORT: 'eighty' }, undefined, 'Invalid environment variable PORT: must be a number'],
    [{ PORT: '70000' }, undefined, 'Invalid environment variable PORT: must be a valid port'],
    [{ LOG_LEVEL: 'loud' }, undefined, 'Invalid environment variable LOG_LEVEL: must be one of'],
    [{ PREDGATE_CATALOG_URL: 'postgres://db' }, undefined, 'Invalid environment variable PREDGATE_CATALOG_URL'],
    [{ PREDGATE_API_KEYS: 'short' }, undefined, 'Invalid environment variable PREDGATE_API_KEYS: API keys must be at least 16 characters'],
    [{}, { rateLimit: { requests: -1 } }, 'field "rateLimit.requests": must be greater than or equal to 0'],
    [{}, { prot: 3000 }, 'field "prot": is not allowed'],
  ])('names the bad field: %j %j', (env, file, message) => {
    const path = file ? join(mkdtempSync(join(tmpdir(), 'predgate-config-')), 'bad.json') : undefined;
    if (path) writeFileSync(path, JSON.stringify(file));
    expect(() => loadConfig({ env, file: path })).toThrow(message);
  });

  test('a missing or malformed file is named', () => {
    expect(() => loadConfig({ env: {}, file: '/nonexistent/predgate.json' })).toThrow('Configuration file not found: /nonexistent/predgate.json');
  });
});
