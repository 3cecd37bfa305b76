import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { expect, test } from 'vitest';
import { apiKey, workspace } from './support.js';

interface Served {
  uri: string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `predgate serve` as an operator runs it, in its own process. */
async function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', 'server/src/cli.ts', 'serve'], {
    cwd: workspace,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', PREDGATE_API_KEYS: apiKey, ...env },
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const uri = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return { uri, kill: async (signal) => void (child.kill(signal), await exited) };
}

async function get<T>(uri: string, path: string): Promise<T> {
  const answer = await request(`${uri}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return (await answer.body.json()) as T;
}

interface Status {
  data: Array<{ venue: string; lastSweep: { sweepId: string } | null; sweeping: boolean }>;
}

test('after kill -9, a restart serves the last completed sweep at once, without ingesting again', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'predgate-restart-'));
  const manifest = join(dataDir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ venues: { mock: { package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 400 } } } }));
  const env = { PREDGATE_DATA_DIR: dataDir, PREDGATE_MANIFEST: manifest };

  const first = await serve(env);
  let sweepId: string | undefined;
  // Polled until the first sweep is in, for up to a minute: a spawned gateway on a busy machine may take far longer than on an idle one.
  for (let attempt = 0; attempt < 600 && !sweepId; attempt += 1) {
    sweepId = (await get<Status>(first.uri, '/v0/status')).data[0]?.lastSweep?.sweepId;
    if (!sweepId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(sweepId).toBeDefined();
  const before = await get<{ data: unknown[]; meta: { total: number } }>(first.uri, '/v0/events?limit=20&closed=true');
  expect(before.meta.total).toBe(400);
  // Filed by the mock's own category words ('Economy', 'Pop Culture'...), which must be known when the catalog is read back.
  const economics = await get<{ meta: { total: number } }>(first.uri, '/v0/events?limit=20&closed=true&category=Economics');
  const culture = await get<{ meta: { total: number } }>(first.uri, '/v0/events?limit=20&closed=true&category=Culture');
  expect(economics.meta.total).toBeGreaterThan(0);
  expect(culture.meta.total).toBeGreaterThan(0);
  await first.kill('SIGKILL');

  const second = await serve(env);
  try {
    const status = await get<Status>(second.uri, '/v0/status');
    expect(status.data[0]).toMatchObject({ venue: 'mock', lastSweep: { sweepId }, sweeping: false });
    expect(await get(second.uri, '/v0/events?limit=20&closed=true')).toEqual(before);
    expect(await get(second.uri, '/v0/events?limit=20&closed=true&category=Economics')).toEqual(economics);
    expect(await get(second.uri, '/v0/events?limit=20&closed=true&category=Culture')).toEqual(culture);
  } finally {
    await second.kill('SIGTERM');
  }
}, 60_000);
