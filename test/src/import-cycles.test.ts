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

/** A relative import or re-export (`import ... from './x.js'`, `export ... from`), types included. */
const anyImport = /^(?:import|export)[^;]*?\sfrom\s+'(\.[^']+)'/gm;
/** The same, leaving out `import type` and `export type`, which are erased at run time (`import { type X }` is kept: it still loads the module). */
const runtimeImport = /^(?:import|export)(?!\s+type\s)[^;]*?\sfrom\s+'(\.[^']+)'/gm;

/** The files a module imports by a relative path, with the given pattern. */
function imports(file: string, pattern: RegExp): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(pattern)].flatMap(([, specifier]) => {
    const target = resolve(dirname(file), specifier!.replace(/\.js$/, '.ts'));
    return [target, target.replace(/\.ts$/, '/index.ts')].filter((candidate) => existsSync(candidate)).slice(0, 1);
  });
}

/** Each cycle found by a depth-first walk over the imports `pattern` finds, as the files around it. */
function cycles(files: string[], pattern: RegExp): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of imports(file, pattern)) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map((each) => relative(workspace, each)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

const fixtures = join(workspace, 'test', 'src', 'fixtures-import-cycle');
const fixture = (...names: string[]) => names.map((name) => `test/src/fixtures-import-cycle/${name}.ts`);

test('no package imports itself round in a circle at run time (a cycle loads a module before the one it needs)', () => {
  const files = roots.flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(100);
  expect(cycles(files, runtimeImport)).toEqual([]);
});

test('no package imports itself round in a circle even by types (a lower module never names a higher one)', () => {
  const files = roots.flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(100);
  expect(cycles(files, anyImport)).toEqual([]);
});

test('the run-time check sees a run-time cycle and passes cycles of types', () => {
  expect(existsSync(fixtures)).toBe(true);
  expect(cycles(sourceFiles(fixtures), runtimeImport)).toEqual([fixture('a', 'b', 'a')]);
});

test('the check of every import sees cycles of types too (`import type`, `import { type X }`, `export type`)', () => {
  expect(cycles(sourceFiles(fixtures), anyImport)).toEqual([fixture('a', 'b', 'a'), fixture('a', 'c', 'a'), fixture('d', 'e', 'd')]);
});
