import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolymarketArchive } from '@predgate/archive';
import { expect, test } from 'vitest';

const workspace = new URL('../..', import.meta.url).pathname;

function predgate(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', 'server/src/cli.ts', ...args], {
    cwd: workspace,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('predgate archive import loads an hourly file once; files lists it and verify checks it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'predgate-archive-cli-'));
  // An hourly file from another archive (the pmxt-file importer itself is tested in the archive package).
  const elsewhere = mkdtempSync(join(tmpdir(), 'predgate-archive-source-'));
  let now = Date.UTC(2026, 10, 20, 5, 0, 1);
  const other = await PolymarketArchive.open({ dir: elsewhere, now: () => now });
  other.append([
    {
      receivedAt: now,
      timestamp: now - 10,
      market: `0x${'ab'.repeat(32)}`,
      eventType: 'book',
      assetId: '123',
      bids: [{ price: '0.4', size: '10' }],
      asks: [{ price: '0.6', size: '5' }],
    },
  ]);
  now += 3_600_000;
  await other.rollDue();
  await other.close();
  const source = join(elsewhere, 'files', 'polymarket_orderbook_2026-11-20T05.parquet');
  const env = { PREDGATE_DATA_DIR: dataDir };

  const first = predgate(['archive', 'import', source], env);
  expect(first.stderr).toBe('');
  expect(first.stdout).toBe('imported 1 rows from 1 files into 1 hours (0 already held)\n');
  expect(predgate(['archive', 'import', source], env).stdout).toBe('imported 0 rows from 1 files into 1 hours (1 already held)\n');
  expect(predgate(['archive', 'files'], env).stdout).toMatch(/^polymarket_orderbook_2026-11-20T05\.parquet\t1\t\d+\t[0-9a-f]{64}\n$/);
  const verify = predgate(['archive', 'verify'], env);
  expect(verify).toMatchObject({ status: 0, stdout: 'ok \tpolymarket_orderbook_2026-11-20T05.parquet\n' });
}, 180_000);
