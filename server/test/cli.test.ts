import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';

const workspace = new URL('../..', import.meta.url).pathname;
/**
 * Each test spawns the CLI through tsx, several times over: seconds on an idle machine, but a
 * busy one has taken over two minutes for the two starts of one test. The limit only catches a hang.
 */
const spawnLimitMs = 300_000;
const cli = ['--conditions=predgate-source', '--import', 'tsx', 'server/src/cli.ts'];

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [...cli, ...args], { cwd: workspace, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `predgate serve` and resolves once it has printed its banner (or, with `until`, that text). */
function serve(env: Record<string, string>, until = 'Try:') {
  const child = spawn(process.execPath, [...cli, 'serve'], { cwd: workspace, env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env } });
  let output = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(until)) resolve(output);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, banner, exited };
}

describe('predgate keys', () => {
  test(
    'create, list and revoke manage the keys file without ever storing a key',
    () => {
      const env = { PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-cli-')) };
      const created = run(['keys', 'create', '--label', 'research'], env);
      expect(created.status).toBe(0);
      const [id, key] = created.stdout.split('\n');
      expect(key).toMatch(/^pg_/);
      const listed = run(['keys', 'list'], env);
      expect(listed.stdout).toContain(id);
      expect(listed.stdout).toContain('research');
      expect(listed.stdout).not.toContain(key);
      expect(run(['keys', 'revoke', id!], env).stdout).toContain(`revoked ${id}`);
      const again = run(['keys', 'revoke', id!], env);
      expect(again.status).toBe(1);
      expect(again.stderr).toBe(`predgate: no key with id ${id} in ${join(env.PREDGATE_DATA_DIR, 'api-keys.json')}\n`);
    },
    spawnLimitMs,
  );
});

describe('predgate --version', () => {
  test('prints the gateway package version', { timeout: spawnLimitMs }, () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = run([flag], {});
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});

describe('predgate serve', () => {
  test(
    'the banner names /docs; once every venue has swept, one summary and the first key again close the start',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'predgate-summary-'));
      const manifest = join(dataDir, 'manifest.json');
      writeFileSync(manifest, JSON.stringify({ venues: { mock: { package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 50 } } } }));
      const started = serve({ PREDGATE_DATA_DIR: dataDir, PREDGATE_MANIFEST: manifest }, 'Docs:');
      const output = await started.banner;
      const uri = /listening on (\S+)/.exec(output)![1]!;
      expect(output).toContain(`API reference: ${uri}/docs`);
      const summary = output.slice(output.indexOf('Catalog:'));
      expect(summary.split('\n')[0]).toBe('Catalog: 1 venue swept (mock 50 events)');
      const key = /\n\s+(pg_\S+)\n/.exec(output)![1]!;
      expect(summary).toContain(`  ${key}\n`);
      expect(summary).toContain(`Docs: ${uri}/docs`);
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    },
    spawnLimitMs,
  );

  test(
    'a first start creates and prints a key, serves with it, reuses it on the next start, and stops on SIGTERM',
    async () => {
      const env = { PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-serve-')) };
      const first = serve(env);
      const banner = await first.banner;
      const uri = /listening on (\S+)/.exec(banner)![1]!;
      const key = /\n\s+(pg_\S+)\n/.exec(banner)![1]!;
      expect(banner).toMatch(/Venues: .*mock/);
      const response = await request(`${uri}/api/mock/fetchEvents?limit=2`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.body.json()) as { success: boolean; data: unknown[] };
      expect(body.success).toBe(true);
      expect(body.data).toHaveLength(2);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = serve(env);
      const again = await second.banner;
      expect(again).toContain('API keys: 1 configured');
      expect(again).not.toContain('pg_');
      const reuse = await request(`${/listening on (\S+)/.exec(again)![1]}/api/mock/fetchEvents?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(reuse.statusCode).toBe(200);
      await reuse.body.dump();
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    },
    spawnLimitMs,
  );

  test('a bad setting stops the start with one line naming it', { timeout: spawnLimitMs }, () => {
    const result = run(['serve'], { PORT: 'eighty', PREDGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'predgate-bad-')) });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('predgate: Invalid environment variable PORT: must be a number\n');
  });
});
