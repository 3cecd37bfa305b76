import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultManifest, loadAdapters } from '../src/venues/loader.js';
import { parseManifest, readManifest } from '../src/venues/manifest.js';
import { testApp, thirdPartyProject } from './helpers.js';

const venue = (id: string, pkg: string, version: string) => ({ venues: [{ id, package: pkg, version, config: {} }] });

describe('loading adapters', () => {
  test('a workspace adapter loads when its version satisfies the pin', async () => {
    const [loaded] = await loadAdapters(venue('mock', '@predgate/adapter-mock', '^0.1.0'), []);
    expect(loaded?.plugin).toMatchObject({ id: 'mock', version: '0.1.0' });
  });

  test('a third-party adapter installed as a package loads the same way, from the project it is installed in', async () => {
    const app = await testApp({ manifest: venue('acme', 'predgate-adapter-acme', '1.x'), searchRoots: [thirdPartyProject] });
    try {
      const response = await app.call({ url: '/api/acme/fetchEvents' });
      expect(response.result).toMatchObject({ success: true, data: [{ id: 'acme-1', sourceExchange: 'acme' }] });
      const described = (await app.call({ url: '/api/acme/describe' })).result as { data: Record<string, unknown> };
      expect(described.data).toMatchObject({ package: 'predgate-adapter-acme', version: '1.0.0', rateLimit: { requests: 10, intervalMs: 1000 } });
    } finally {
      await app.stop();
    }
  });

  test.each([
    [
      'a version outside the pin',
      venue('mock', '@predgate/adapter-mock', '^0.2.0'),
      [],
      '@predgate/adapter-mock: the manifest pins mock to ^0.2.0, but version 0.1.0 is installed',
    ],
    [
      'a package that is not installed',
      venue('ghost', 'predgate-adapter-ghost', '1.0.0'),
      [thirdPartyProject],
      'predgate-adapter-ghost: adapter package is not installed',
    ],
    [
      'a package without the venue',
      venue('kalshi', '@predgate/adapter-mock', '^0.1.0'),
      [],
      '@predgate/adapter-mock: has no adapter plugin for venue "kalshi" (it provides: mock)',
    ],
  ])('%s stops the start with one line naming the package and the versions', async (_title, manifest, roots, message) => {
    await expect(loadAdapters(manifest, roots)).rejects.toThrow(message);
  });

  test('a plugin built for another core is refused, naming both versions', async () => {
    await expect(loadAdapters(venue('acme', 'predgate-adapter-acme', '1.0.0'), [thirdPartyProject], '1.4.0')).rejects.toThrow(
      'predgate-adapter-acme: needs @predgate/core ^0.1.0, but the running core is 1.4.0',
    );
  });

  test('a broken plugin object is refused, naming the field', async () => {
    const project = mkdtempSync(join(tmpdir(), 'predgate-broken-'));
    const folder = join(project, 'node_modules', 'predgate-adapter-broken');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ dependencies: { 'predgate-adapter-broken': '1.0.0' } }));
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'predgate-adapter-broken', version: '1.0.0', type: 'module', main: 'index.js', keywords: ['predgate-adapter'] }),
    );
    writeFileSync(join(folder, 'index.js'), "export default { id: 'broken', version: '1.0.0', coreRange: '^0.1.0', displayName: 'Broken' };\n");
    await expect(loadAdapters(venue('broken', 'predgate-adapter-broken', '1.0.0'), [project])).rejects.toThrow(
      'predgate-adapter-broken: invalid adapter plugin: "create" is required',
    );
  });

  test('without a manifest, the bundled adapters are served as their default manifest says, and every other installed adapter at its installed version', async () => {
    const manifest = await defaultManifest([thirdPartyProject]);
    expect(manifest.venues).toEqual(
      expect.arrayContaining([
        { id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: {} },
        { id: 'kalshi-demo', package: '@predgate/adapter-kalshi', version: '^0.1.0', config: {} },
        { id: 'acme', package: 'predgate-adapter-acme', version: '1.0.0', config: {} },
        { id: 'flaky', package: 'predgate-adapter-flaky', version: '1.0.0', config: {} },
      ]),
    );
  });
});

describe('the deployment manifest', () => {
  test('lists enabled venues with their package, pin and configuration', () => {
    const manifest = parseManifest({
      venues: {
        mock: { package: '@predgate/adapter-mock', version: '0.1.0', config: { events: 50 } },
        'kalshi-demo': { package: '@predgate/adapter-kalshi', version: '^0.1.0', enabled: false },
      },
    });
    expect(manifest).toEqual({ venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '0.1.0', config: { events: 50 } }] });
  });

  test.each([
    [{ venues: { mock: { package: '@predgate/adapter-mock', version: 'newest' } } }, '"venues.mock.version" must be a version or semver range, got "newest"'],
    [{ venues: { mock: { version: '1.0.0' } } }, '"venues.mock.package" is required'],
    [{ venues: { router: { package: 'x', version: '1.0.0' } } }, 'router'],
    [{}, '"venues" is required'],
  ])('rejects %j, naming the field', (candidate, message) => {
    expect(() => parseManifest(candidate)).toThrow(message);
  });

  test('is read from a file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'predgate-manifest-')), 'manifest.json');
    writeFileSync(path, JSON.stringify({ venues: { mock: { package: '@predgate/adapter-mock', version: '0.1.0' } } }));
    expect(readManifest(path).venues.map((entry) => entry.id)).toEqual(['mock']);
    writeFileSync(path, '{ not json');
    expect(() => readManifest(path)).toThrow(`Deployment manifest ${path} is not valid JSON`);
  });
});
