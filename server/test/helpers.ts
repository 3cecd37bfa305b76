import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fixedClock } from '@predgate/core';
import type { ServerInjectOptions, ServerInjectResponse } from '@hapi/hapi';
import { createApp } from '../src/app.js';
import type { App, AppOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { ServerConfig } from '../src/config.js';
import type { KeyStore } from '../src/keys/key-store.js';
import { createLogger } from '../src/logging.js';
import type { Manifest } from '../src/venues/manifest.js';

export const apiKey = 'test-key-0123456789abcdef';
/** A project folder with third-party adapters installed, as an operator's deployment would have. */
export const thirdPartyProject = new URL('./fixtures/third-party', import.meta.url).pathname;
export const now = Date.UTC(2026, 10, 22, 12);
export const mockManifest: Manifest = {
  venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 300 } }],
};

export interface TestApp extends App {
  /** Every log line written, as text. */
  logs: string[];
  call(options: ServerInjectOptions): Promise<ServerInjectResponse>;
}

/** A gateway over a small mock venue, with one API key, a fixed clock and captured logs. */
export async function testApp(overrides: { config?: Partial<ServerConfig>; logLevel?: string } & Partial<Omit<AppOptions, 'config'>> = {}): Promise<TestApp> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const { config: configOverrides, logLevel = 'debug', ...options } = overrides;
  const config = {
    ...loadConfig({ env: { PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-server-')), PREDGATE_API_KEYS: apiKey } }),
    ...configOverrides,
  };
  const app = await createApp({
    config,
    manifest: mockManifest,
    clock: fixedClock(now),
    // Debug logs every request, so the tests that keep secrets out of the logs see every line there can be.
    logger: createLogger(logLevel, sink),
    // Built on the first request instead: most tests never read it, and it costs each app about a second on a busy machine.
    openApiAtStart: false,
    ...options,
  });
  return {
    ...app,
    logs,
    call: async (inject) => {
      const response = await app.server.inject({ ...inject, headers: { authorization: `Bearer ${apiKey}`, ...inject.headers } });
      // Answers leave the handler as JSON bytes: `result` is then what a client reads from them.
      if (
        (typeof response.result === 'string' || Buffer.isBuffer(response.result)) &&
        !response.headers['content-encoding'] &&
        String(response.headers['content-type']).startsWith('application/json')
      ) {
        response.result = JSON.parse(response.payload) as object;
      }
      return response;
    },
  };
}

/** Resolves at the first `reload` of `keys` after which `holds` is true (at once if it already is): live keys are waited on by their events. */
export function reloadedUntil(keys: KeyStore, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!holds()) return;
      keys.off('reload', check);
      resolve();
    };
    keys.on('reload', check);
    check();
  });
}

/**
 * A gateway listening on 127.0.0.1 (requests pass Node's listener, which `inject` never does), its mock venue swept,
 * at info level (debug logs every request, and the lanes in front of hapi stand aside), counting the requests hapi sees.
 */
export async function listeningApp(options: Parameters<typeof testApp>[0] = {}): Promise<{ app: TestApp; origin: string; seenByHapi: () => number }> {
  const app = await testApp({ logLevel: 'info', ...options, config: { port: 0, host: '127.0.0.1', ...options.config } });
  let seen = 0;
  app.server.ext('onRequest', (_request, h) => {
    seen += 1;
    return h.continue;
  });
  await app.catalog.sweep('mock');
  await app.server.start();
  return { app, origin: `http://127.0.0.1:${app.server.info.port}`, seenByHapi: () => seen };
}
