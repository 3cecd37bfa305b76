import { readdirSync, existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under this condition, so
// tests run without a build. Setting conditions replaces vite's defaults, so
// the defaults are listed again.
const conditions = ['predgate-source', 'module', 'node', 'development|production'];

const adapterDirs = readdirSync('adapters', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`adapters/${entry.name}/package.json`))
  .map((entry) => `adapters/${entry.name}`);

const packageDirs = ['core', ...adapterDirs, 'catalog', 'archive', 'server', 'test'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // The JSON report is what CI counts tests from (.ci/summarize-tests.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
    // Tests wait on events, never on time; these limits only catch a hang. vitest's defaults (5 s a test,
    // 10 s a hook) are overrun by a gateway's start alone when the machine is busy.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: packageDirs.map((dir) => ({
      extends: true,
      test: {
        name: dir,
        root: dir,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      },
    })),
  },
});
