import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * Every adapter has one layout, the template's (adapters/template/README.md):
 * a newcomer finds the same thing in the same place in every venue.
 */
const adaptersDir = new URL('../../adapters/', import.meta.url).pathname;

/** Each entry of `src/` and what it is for. `required` ones every adapter has. */
const layout: Record<string, { kind: 'file' | 'folder'; required: boolean }> = {
  'index.ts': { kind: 'file', required: true }, // the plugin only
  'config.ts': { kind: 'file', required: true }, // the manifest section's schema and type
  'adapter.ts': { kind: 'file', required: true }, // defineAdapter: the context, and the methods bound to it
  'errors.ts': { kind: 'file', required: true }, // venue failures to unified codes, a table where it is data
  'context.ts': { kind: 'file', required: false }, // what every call of one instance shares: types only
  'venue.ts': { kind: 'file', required: false }, // the venue's id and constants: a leaf any module imports
  'ids.ts': { kind: 'file', required: false }, // the venue's id forms, where they need reading
  api: { kind: 'folder', required: true }, // client.ts (endpoints), schemas.ts (payload checks), paging
  normalize: { kind: 'folder', required: true }, // venue shapes to the unified model
  reads: { kind: 'folder', required: false }, // public reads
  account: { kind: 'folder', required: false }, // account reads and trading
  auth: { kind: 'folder', required: false }, // signing
  streams: { kind: 'folder', required: false }, // websocket feeds
};
const apiFiles = ['client.ts', 'schemas.ts'];

/**
 * The simulated venue has no wire: its venue is `simulation/`, which makes
 * unified objects itself, so it has no `api/` payloads to check and nothing
 * to `normalize/`.
 */
const simulated: Record<string, { kind: 'file' | 'folder'; required: boolean }> = {
  ...layout,
  api: { kind: 'folder', required: false },
  normalize: { kind: 'folder', required: false },
  simulation: { kind: 'folder', required: true },
};
const simulatedVenues = new Set(['mock']);

/** Adapter packages (the `predgate-adapter` keyword): not the bundle that depends on them. */
const adapters = readdirSync(adaptersDir).filter((name) => {
  const manifest = join(adaptersDir, name, 'package.json');
  return existsSync(manifest) && ((JSON.parse(readFileSync(manifest, 'utf8')) as { keywords?: string[] }).keywords ?? []).includes('predgate-adapter');
});

/** What is wrong with an adapter's layout; empty when it follows it. */
function layoutProblems(adapter: string): string[] {
  const src = join(adaptersDir, adapter, 'src');
  const problems: string[] = [];
  const expectedLayout = simulatedVenues.has(adapter) ? simulated : layout;
  const entries = readdirSync(src).filter((name) => !name.endsWith('.test.ts'));
  for (const name of entries) {
    const expected = expectedLayout[name];
    const kind = statSync(join(src, name)).isDirectory() ? 'folder' : 'file';
    if (!expected) problems.push(`src/${name} is not part of the layout`);
    else if (expected.kind !== kind) problems.push(`src/${name} should be a ${expected.kind}`);
  }
  for (const [name, { required }] of Object.entries(expectedLayout)) if (required && !entries.includes(name)) problems.push(`src/${name} is missing`);
  if (entries.includes('api')) for (const file of apiFiles) if (!existsSync(join(src, 'api', file))) problems.push(`src/api/${file} is missing`);
  const index = existsSync(join(src, 'index.ts')) ? readFileSync(join(src, 'index.ts'), 'utf8') : '';
  if (!index.includes('definePlugin(')) problems.push('src/index.ts does not make its plugin with definePlugin');
  if (/from 'joi'/.test(index)) problems.push('src/index.ts holds configuration: it belongs in src/config.ts');
  // The context names the types of the modules below it; a value there would make those modules import it back.
  const context = existsSync(join(src, 'context.ts')) ? readFileSync(join(src, 'context.ts'), 'utf8') : '';
  if (/^export (?!type |interface )/m.test(context)) problems.push('src/context.ts exports a value: venue constants belong in src/venue.ts');
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    // The plugin imports the adapter; nothing imports the plugin back (the type-only cycle the old layout taught).
    if (/from '(\.\.?\/)+index\.js'/.test(text)) problems.push(`${relative(src, file)} imports the plugin (src/index.ts)`);
    if (/from '@predgate\/archive'/.test(text)) problems.push(`${relative(src, file)} imports the archive`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('every adapter has the template’s layout', () => {
  test('the template is an adapter here', () => {
    expect(adapters).toContain('template');
  });

  test.each(adapters)('%s', (adapter) => {
    expect(layoutProblems(adapter)).toEqual([]);
  });
});
