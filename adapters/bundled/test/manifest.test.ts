import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import semver from 'semver';
import { expect, test } from 'vitest';

interface BundleManifest {
  venues: Record<string, { package: string; version: string }>;
}

const bundle = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const manifest = JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url), 'utf8')) as BundleManifest;
const resolve = createRequire(new URL('../package.json', import.meta.url)).resolve;

// That each venue id is one its package's plugins offer is checked where the gateway loads the manifest (server's readme-tables test).
test('the default manifest serves every bundled adapter, at version ranges the installed adapters satisfy, and nothing the bundle does not install', () => {
  const named = new Set(Object.values(manifest.venues).map((venue) => venue.package));
  expect([...named].sort()).toEqual(Object.keys(bundle.dependencies).sort());
  for (const [id, venue] of Object.entries(manifest.venues)) {
    const installed = JSON.parse(readFileSync(resolve(`${venue.package}/package.json`), 'utf8')) as { version: string; keywords?: string[] };
    expect(installed.keywords, venue.package).toContain('predgate-adapter');
    expect(semver.satisfies(installed.version, venue.version), `${id}: ${venue.package} ${installed.version} against ${venue.version}`).toBe(true);
  }
});
