import { fileURLToPath } from 'node:url';
import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { AdapterPlugin, Credentials } from '@predgate/core';
import { loadFixtureCases, replayAgent } from '@predgate/core/testkit';
import type { AdapterFactoryContext } from '@predgate/core/testkit';
import type { KalshiAdapter } from '../../src/adapter.js';

/** When the fixtures were recorded: 2026-05-14T14:05:00Z. */
export const fixtureNow = 1_778_767_500_000;

/** Each venue's fixtures (`requests/`, `responses/`); payloads are shared under `fixtures/payloads/`. */
export const fixtureDirs: Record<string, string> = {
  kalshi: fileURLToPath(new URL('../fixtures', import.meta.url)),
  'kalshi-demo': fileURLToPath(new URL('../fixtures/kalshi-demo', import.meta.url)),
};

/** The fixture suite's factory: the plugin with its default configuration. */
export function factoryFor(plugin: AdapterPlugin<KalshiAdapter>) {
  return (context: AdapterFactoryContext): KalshiAdapter => plugin.create({ ...context, logger: silentLogger, config: {} });
}

/** An adapter whose venue traffic is answered from every fixture of its venue. */
export function replayedAdapter(plugin: AdapterPlugin<KalshiAdapter>, credentials?: Credentials, config: Record<string, unknown> = {}): KalshiAdapter {
  const http = createHttpClientFactory({ dispatcher: replayAgent(loadFixtureCases(fixtureDirs[plugin.id]!)) });
  return plugin.create({ http, clock: fixedClock(fixtureNow), logger: silentLogger, config, ...(credentials ? { credentials } : {}) });
}
