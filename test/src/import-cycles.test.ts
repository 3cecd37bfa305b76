import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const workspace = new URL('../..', import.meta.url).pathname;

/** Every package's source, tests left out: core, catalog, archive, server and each adapter. */
const roots = ['core', 'catalog', 'archive', 'server', ...readdirSync(join(workspace, 'adapters')).map((name) => `adapters/${name}`)]
  .map((folder) => join(workspace, folder, 'src'))
  .filter((folder) => existsSync(folder));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files a module imports at run time by a relative path (`import type` is erased, so it is left out). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)(?!\s+type\s)[^;]*?\sfrom\s+'(\.[^']+)'/gm)].flatMap(([, specifier]) => {
    const target = resolve(dirname(file), specifier!.replace(/\.js$/, '.ts'));
    return [target, target.replace(/\.ts$/, '/index.ts')].filter((candidate) => existsSync(candidate)).slice(0, 1);
  });
}

/** Each cycle found by a depth-first walk, as the files around it. */
function cycles(files: string[]): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of runtimeImports(file)) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map((each) => relative(workspace, each)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

test('no package imports itself round in a circle at run time (a cycle loads a module before the one it needs)', () => {
  const files = roots.flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(100);
  expect(cycles(files)).toEqual([]);
});

test('the check sees a cycle', () => {
  const folder = join(workspace, 'test', 'src', 'fixtures-import-cycle');
  expect(existsSync(folder)).toBe(true);
  expect(cycles(sourceFiles(folder))).toEqual([
    ['test/src/fixtures-import-cycle/a.ts', 'test/src/fixtures-import-cycle/b.ts', 'test/src/fixtures-import-cycle/a.ts'],
  ]);
});
