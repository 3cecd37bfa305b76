import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { doubleAndRealServer } from '../../catalog/test/mongo-wire/harness.js';

const workspace = new URL('../..', import.meta.url).pathname;
const statusKey = 'replica-status-key-0123456789';
const budgetKey = 'replica-budget-key-0123456789';
// Every key has this budget, the status key too: enough for the status reads, small enough to spend in a test.
const limit = 50;

interface Replica {
  child: ChildProcess;
  uri: string;
  exited: Promise<unknown>;
}

/** `predgate serve` in a process of its own, as each replica behind a load balancer runs. */
async function serve(env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', 'server/src/cli.ts', 'serve', '--config', env.CONFIG!], {
    cwd: workspace,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const uri = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return { child, uri, exited };
}

/** Polls `probe` until it returns a value, within a generous overall limit: replicas act on timers of their own. */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string, everyMs = 100, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function get(uri: string, path: string, key: string) {
  const answer = await request(`${uri}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: answer.statusCode, headers: answer.headers, body: (await answer.body.json()) as Record<string, unknown> };
}

interface VenueStatus {
  venue: string;
  lastSweep: { sweepId: string; startedAt: number; sweptBy?: string } | null;
  catalogServed: boolean;
  sweeper: { holder: string; here: boolean } | null;
}

describe.each(doubleAndRealServer('two replicas'))('two gateway processes on one MongoDB catalog ($where)', ({ uri, skip }) => {
  const replicas: Replica[] = [];
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    if (skip) return;
    const name = `predgate_replicas_${process.pid}`;
    const url = new URL(uri());
    url.pathname = `/${name}`;
    client = await new MongoClient(uri(), { serverSelectionTimeoutMS: 2_000 }).connect();
    db = client.db(name);
    const dir = mkdtempSync(join(tmpdir(), 'predgate-replicas-'));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ venues: { mock: { package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 40 } } } }));
    const config = join(dir, 'predgate.json');
    // Sweeps every second and a two-second lease, so that several sweeps and a takeover fit in a test.
    writeFileSync(config, JSON.stringify({ catalog: { intervalSeconds: 1, leaseSeconds: 2 }, rateLimit: { requests: limit, windowSeconds: 3_600 } }));
    const env = { PREDGATE_CATALOG_URL: url.toString(), PREDGATE_MANIFEST: manifest, PREDGATE_API_KEYS: `${statusKey},${budgetKey}`, CONFIG: config };
    for (const replica of ['a', 'b']) replicas.push(await serve({ ...env, PREDGATE_DATA_DIR: join(dir, replica) }));
  }, 120_000);

  afterAll(async () => {
    if (skip) return;
    for (const replica of replicas.filter((replica) => replica.child.exitCode === null && replica.child.signalCode === null)) {
      replica.child.kill('SIGKILL');
      await replica.exited;
    }
    await db.dropDatabase();
    await client.close();
  });

  const lease = async () => (await db.collection<{ _id: string; holder: string }>('sweepLeases').findOne({ _id: 'mock' })) ?? undefined;
  const committed = async () =>
    (await db.collection<{ _id: string; sweepId: string; startedAt: number; sweptBy?: string }>('sweeps').findOne({ _id: 'mock' })) ?? undefined;
  const replicaOf = (holder: string) => replicas.find((replica) => holder.split(':')[1] === String(replica.child.pid));
  const statusOn = async (replica: Replica) => {
    const answer = await get(replica.uri, '/v0/status', statusKey);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.data as VenueStatus[]).find((venue) => venue.venue === 'mock')!;
  };

  /** The next sweeps committed after the one seen now, each with the replica that wrote it. */
  async function nextSweeps(count: number): Promise<string[]> {
    const writers: string[] = [];
    let last = (await committed())?.sweepId;
    while (writers.length < count) {
      const sweep = await eventually(async () => {
        const current = await committed();
        return current && current.sweepId !== last ? current : undefined;
      }, 'a new sweep');
      last = sweep.sweepId;
      writers.push(sweep.sweptBy ?? 'unknown');
    }
    return writers;
  }

  test.skipIf(skip)('share one rate limit: together they allow exactly one key’s limit', { timeout: 60_000 }, async () => {
    const statuses: number[] = [];
    for (let index = 0; index < limit + 4; index += 1) {
      const answer = await get(replicas[index % 2]!.uri, '/api/mock/describe', budgetKey);
      statuses.push(answer.status);
      expect(answer.headers['ratelimit-limit']).toBe(String(limit));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual([429, 429, 429, 429]);
  });

  test.skipIf(skip)('one replica sweeps the venue, the other serves what it writes', { timeout: 120_000 }, async () => {
    const holder = await eventually(async () => (await lease())?.holder, 'a sweep lease');
    const sweeper = replicaOf(holder)!;
    const other = replicas.find((replica) => replica !== sweeper)!;
    expect(sweeper).toBeDefined();
    expect(await nextSweeps(3)).toEqual([holder, holder, holder]);

    const seenBySweeper = await statusOn(sweeper);
    expect(seenBySweeper.sweeper).toMatchObject({ holder, here: true });
    // The other replica sees the sweeps as they are committed, so it serves the catalog as fresh.
    const latest = (await committed())!;
    const seenByOther = await eventually(
      async () => {
        const status = await statusOn(other);
        return status.lastSweep && status.lastSweep.startedAt >= latest.startedAt ? status : undefined;
      },
      'the latest sweep (or a later one) on the other replica',
      250,
    );
    expect(seenByOther).toMatchObject({ sweeper: { holder, here: false }, catalogServed: true });
    const served = await get(other.uri, '/api/mock/fetchEvents?limit=2', statusKey);
    expect(served.status).toBe(200);
    expect(served.headers['predgate-served-from']).toBe('catalog');
  });

  test.skipIf(skip)('the other replica takes the venue over when the sweeper dies', { timeout: 120_000 }, async () => {
    const holder = (await lease())!.holder;
    const sweeper = replicaOf(holder)!;
    const other = replicas.find((replica) => replica !== sweeper)!;
    sweeper.child.kill('SIGKILL');
    await sweeper.exited;
    const successor = await eventually(async () => {
      const current = (await lease())?.holder;
      return current && current !== holder ? current : undefined;
    }, 'a new lease holder');
    expect(replicaOf(successor)).toBe(other);
    expect(await nextSweeps(2)).toEqual([successor, successor]);
    expect((await statusOn(other)).sweeper).toMatchObject({ holder: successor, here: true });
  });
});
