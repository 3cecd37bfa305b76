import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { capabilitiesOf, coreMethods, createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { AdapterPlugin } from '@predgate/core';
import { describe, expect, test } from 'vitest';

/**
 * Every method an adapter reports `false` in `describe` carries a reason in
 * its profile's `unsupported` table (issue 36): `describe` and the
 * NOT_SUPPORTED answer then tell a caller why, not only that it is refused.
 */
const adaptersDir = new URL('../../adapters/', import.meta.url).pathname;

const packages = readdirSync(adaptersDir)
  .filter((name) => existsSync(join(adaptersDir, name, 'package.json')))
  .map((folder) => JSON.parse(readFileSync(join(adaptersDir, folder, 'package.json'), 'utf8')) as { name: string; keywords?: string[] })
  // Adapter packages only: the folder also holds the bundle of them all.
  .filter((manifest) => manifest.keywords?.includes('predgate-adapter'))
  .map((manifest) => manifest.name);

/** Every plugin a package offers: its `plugins` list where it has several venue ids (Kalshi), else its default. */
async function pluginsOf(packageName: string): Promise<AdapterPlugin[]> {
  const module = (await import(packageName)) as { default: AdapterPlugin; plugins?: AdapterPlugin[] };
  return module.plugins ?? [module.default];
}

/** A method that ends a stream's watches (`unwatchTrades`) is there exactly when its stream is: the stream's reason is its reason. */
const streamOfStop = new Map(
  Object.entries(coreMethods).flatMap(([name, declaration]) => (declaration.stream?.stop ? [[declaration.stream.stop, name] as const] : [])),
);

/** The methods the adapter's `describe` reports unavailable and gives no reason for. */
function withoutReason(plugin: AdapterPlugin): string[] {
  // No call is made: the capability map and the profile are read from the adapter as created.
  const adapter = plugin.create({ http: createHttpClientFactory(), logger: silentLogger, clock: fixedClock(0), config: {} });
  const reasons = adapter.profile.unsupported ?? {};
  const reasonFor = (name: string) => reasons[name]?.trim() || (streamOfStop.has(name) ? reasons[streamOfStop.get(name)!]?.trim() : undefined);
  return Object.entries(capabilitiesOf(adapter))
    .filter(([name, capability]) => capability === false && !reasonFor(name))
    .map(([name]) => name);
}

describe('every method an adapter does not offer has a reason in describe', () => {
  test('each adapter folder is checked', () => {
    expect(packages.length).toBeGreaterThanOrEqual(17);
  });

  test.each(packages)('%s', async (packageName) => {
    for (const plugin of await pluginsOf(packageName))
      expect({ venue: plugin.id, withoutReason: withoutReason(plugin) }).toEqual({ venue: plugin.id, withoutReason: [] });
  });
});
