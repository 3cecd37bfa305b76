import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, mockStreamingGateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * pmxtjs 2.41, unchanged, in its own Node process against the gateway's mock
 * venue: reads, an error, watches, unwatch and close, in each of its builds.
 * The process must end by itself within 2 s of its last call.
 */

const script = fileURLToPath(new URL('./pmxtjs/client.mjs', import.meta.url));
/** How long the client process may live after `close()` answered. */
const exitWithinMs = 2_000;
/** A bound on the whole run, so a client that never ends fails the test instead of hanging it. */
const runLimitMs = 60_000;

let app: Gateway;
let outcomeId: string;
beforeAll(async () => {
  ({ app, outcomeId } = await mockStreamingGateway());
});
afterAll(() => app.stop());

/** Runs the client script; resolves with its report, exit code and how long it lived after printing the report. */
async function runClient(build: 'cjs' | 'esm') {
  const child = spawn(process.execPath, [script, build], {
    // A base URL with a trailing slash, as users write it: pmxtjs then asks for `//ws` and `//api/...`.
    env: { ...process.env, PMXT_BASE_URL: `${app.server.info.uri}/`, PMXT_API_KEY: apiKey, OUTCOME_ID: outcomeId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let reportedAt: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (reportedAt === undefined && stdout.includes('\n')) reportedAt = performance.now();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), runLimitMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  const exitedAt = performance.now();
  clearTimeout(limit);
  if (code !== 0) throw new Error(`the ${build} client ended with ${code ?? signal}: ${stderr.slice(0, 2_000)}`);
  return { report: JSON.parse(stdout) as Record<string, unknown>, livedAfterMs: exitedAt - reportedAt! };
}

describe.each(['cjs', 'esm'] as const)('pmxtjs 2.41 %s build, in its own process', (build) => {
  test('reads, gets errors as pmxt errors, watches, unwatches, closes, and exits by itself within 2 s', async () => {
    const { report, livedAfterMs } = await runClient(build);
    expect(report).toEqual({
      events: 2,
      markets: 3,
      page: { size: 2, cursor: true },
      loaded: expect.any(Number),
      book: expect.any(Number),
      // pmxtjs 2.41 has no class of its own for OUTCOME_NOT_FOUND: the code comes through on its base error.
      error: { name: 'PmxtError', code: 'OUTCOME_NOT_FOUND' },
      watched: [true, true],
      trades: true,
    });
    expect(report.loaded).toBeGreaterThan(3);
    expect(report.book).toBeGreaterThan(0);
    expect(livedAfterMs).toBeLessThan(exitWithinMs);
    // Nothing the client opened is left on the gateway.
    expect(app.streams.clients).toBe(0);
    expect(app.streams.http.size).toBe(0);
    expect(app.streams.hub.size).toBe(0);
  }, 90_000);
});
