import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@predgate/core/testkit';
import { afterEach, expect, test } from 'vitest';
import { Receiver } from './webhook-receiver.js';
import { expectedKinds } from './webhook-scenario.js';

const gateway = new URL('./fixtures/webhooks/gateway.ts', import.meta.url).pathname;
const serverRoot = new URL('..', import.meta.url).pathname;
const children: ChildProcess[] = [];
const receiver = new Receiver();

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await receiver.stop();
});

/** Starts the scenario's gateway process; `lines` collects what it prints. */
function start(dir: string): { child: ChildProcess; lines: string[]; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', gateway, dir, receiver.url], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited };
}

test('notifications journaled before a kill -9 reach the receiver exactly once after the restart, each verified', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'predgate-webhooks-kill-'));
  await receiver.start();
  // First life: the receiver takes every request and never answers, so each notification is persisted and sent but never confirmed.
  receiver.answer = () => 'hang';
  const first = start(dir);
  await until(() => first.lines.includes('journaled') && receiver.received.length > 0, 'the first life journaled and sent', 60_000);
  receiver.secret = first.lines.find((line) => line.startsWith('secret '))!.slice('secret '.length);
  first.child.kill('SIGKILL');
  await first.exited;
  expect(receiver.acknowledged().size).toBe(0);

  // Second life over the same folder, the receiver answering now.
  receiver.answer = () => 200;
  const second = start(dir);
  await until(() => receiver.acknowledged().size === expectedKinds.length, 'every notification acknowledged after the restart', 60_000);
  // The second life made nothing new: it delivered what the first had journaled.
  await until(() => second.lines.length > 0, 'the second life said what it did', 10_000);
  expect(second.lines).toEqual(['restarted']);
  expect([...receiver.acknowledged().values()].every((count) => count === 1)).toBe(true);
  expect(receiver.received.every((entry) => receiver.verifies(entry))).toBe(true);
  const kinds = [...receiver.acknowledged().keys()].map(
    (id) => (JSON.parse(receiver.received.find((entry) => entry.id === id)!.body) as { type: string }).type,
  );
  expect(kinds.sort()).toEqual([...expectedKinds].sort());
}, 120_000);
