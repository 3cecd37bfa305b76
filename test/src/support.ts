import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerInjectOptions, ServerInjectResponse } from '@hapi/hapi';
import type { Event } from '@predgate/core';
import { loadFixtureCases } from '@predgate/core/testkit';
import type { FixtureCase } from '@predgate/core/testkit';
import { createApp, loadConfig } from '@predgate/server';
import type { App, AppOptions, Manifest, ServerConfig } from '@predgate/server';

export const apiKey = 'e2e-key-0123456789abcdef';
export const workspace = new URL('../..', import.meta.url).pathname;

export interface Gateway extends App {
  call(options: ServerInjectOptions): Promise<ServerInjectResponse>;
  json<T>(url: string): Promise<T>;
}

/** A whole gateway as `predgate serve` builds it, on a fresh data folder, driven without a socket. */
export async function gateway(options: { manifest: Manifest; config?: Partial<ServerConfig> } & Omit<AppOptions, 'config' | 'manifest'>): Promise<Gateway> {
  const { config: overrides, ...rest } = options;
  const config = {
    ...loadConfig({ env: { LOG_LEVEL: 'warn', PREDGATE_API_KEYS: apiKey, PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-e2e-')) } }),
    ...overrides,
  };
  // /openapi.json is built on its first request here, not at start: few of these tests read it, and it costs each gateway about a second on a busy machine.
  const app = await createApp({ config, openApiAtStart: false, ...rest });
  const call = (inject: ServerInjectOptions) => app.server.inject({ ...inject, headers: { authorization: `Bearer ${apiKey}`, ...inject.headers } });
  return {
    ...app,
    call,
    json: async <T>(url: string) => {
      const response = await call({ url });
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.payload}`);
      return JSON.parse(response.payload) as T;
    },
  };
}

/** The recorded venue traffic of an adapter's response fixtures, picked by case title. */
export function recorded(adapter: string, titles: readonly string[]): FixtureCase[] {
  const cases = loadFixtureCases(join(workspace, 'adapters', adapter, 'test', 'fixtures'));
  const picked = titles.map((title) => {
    const found = cases.find((fixture) => fixture.title === title);
    if (!found) throw new Error(`no ${adapter} fixture titled "${title}"`);
    return found;
  });
  return picked;
}

/** A gateway on 127.0.0.1 serving a small, fast-ticking mock venue, and one of its active outcomes. */
export async function mockStreamingGateway(): Promise<{ app: Gateway; outcomeId: string }> {
  const app = await gateway({
    manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 20, tickMs: 20 } }] },
    config: { port: 0, host: '127.0.0.1' },
  });
  await app.server.start();
  const { data } = await app.json<{ data: Event[] }>('/api/mock/fetchEvents?limit=3');
  const outcomeId = data.flatMap((event) => event.markets.filter((market) => market.status === 'active')).at(0)!.outcomes[0]!.outcomeId;
  return { app, outcomeId };
}
