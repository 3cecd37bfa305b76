import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventIndexes } from '../src/mongo/documents.js';
import { MongoCatalogStore } from '../src/mongo/mongo-store.js';
import { catalogStoreContract } from './contract.js';
import { entries, sampleCatalog, sweepRecord } from './fixtures.js';
import { startMongoWireServer } from './mongo-wire/index.js';
import type { MongoWireServer } from './mongo-wire/index.js';

let databases = 0;

/** The contract over one server: each test gets its own database, dropped afterwards. */
function targetOn(uri: () => string) {
  return () => {
    const name = `predgate_contract_${process.pid}_${(databases += 1)}`;
    const url = withDatabase(uri(), name);
    return {
      create: async () => new MongoCatalogStore({ url }),
      reopen: async () => new MongoCatalogStore({ url }),
      cleanup: async () => {
        const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
        try {
          await client.db(name).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  };
}

/** The in-process wire-protocol server, started for the tests of one describe block. */
function wireServer(): () => MongoWireServer {
  let server: MongoWireServer | undefined;
  beforeAll(async () => {
    server = await startMongoWireServer();
  });
  afterAll(() => server?.close());
  return () => server!;
}

function withDatabase(uri: string, name: string): string {
  const url = new URL(uri);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('MongoCatalogStore through the driver, on the in-process wire-protocol server', () => {
  const server = wireServer();
  catalogStoreContract(targetOn(() => server().uri));
});

describe('MongoCatalogStore counts only when asked', () => {
  const server = wireServer();

  test('a page without withTotal is one query; the Router page asks for the count', async () => {
    const sent: string[] = [];
    const store = new MongoCatalogStore({
      url: withDatabase(server().uri, `predgate_count_${process.pid}`),
      onCommand: (event) => sent.push(event.commandName),
    });
    await store.open();
    try {
      await store.sweeps();
      const reads = async (run: () => Promise<unknown>) => {
        sent.length = 0;
        await run();
        return [...sent].sort();
      };
      expect(await reads(() => store.events({ status: 'all', order: 'venue', limit: 5, offset: 0 }))).toEqual(['find']);
      expect(await reads(() => store.events({ status: 'all', order: 'router', limit: 5, offset: 0, withTotal: true }))).toEqual(['aggregate', 'find']);
      const page = await store.markets({ status: 'all', limit: 5, offset: 0 });
      expect(page.total).toBeUndefined();
      expect((await store.markets({ status: 'all', limit: 5, offset: 0, withTotal: true })).total).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('MongoCatalogStore keeps one sweep before the committed one, in both collections', () => {
  const server = wireServer();

  test("a commit deletes the sweeps before the previous one; an abort deletes its own sweep's events and markets", async () => {
    const url = withDatabase(server().uri, `predgate_sweeps_${process.pid}`);
    const store = new MongoCatalogStore({ url });
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
    await store.open();
    try {
      const events = sampleCatalog().alpha!;
      for (const sweepId of ['alpha-1', 'alpha-2', 'alpha-3']) {
        const writer = await store.beginSweep('alpha', sweepId);
        await writer.add(entries('alpha', events));
        await writer.commit(sweepRecord('alpha', sweepId, events));
      }
      const aborted = await store.beginSweep('alpha', 'alpha-4');
      await aborted.add(entries('alpha', events));
      await aborted.abort();
      const sweepsIn = async (collection: string) => ((await client.db().collection(collection).distinct('sweep')) as string[]).sort();
      expect(await sweepsIn('events')).toEqual(['alpha-2', 'alpha-3']);
      expect(await sweepsIn('markets')).toEqual(['alpha-2', 'alpha-3']);
      expect(await client.db().collection('markets').countDocuments({ sweep: 'alpha-3' })).toBe(10);
    } finally {
      await client.close();
      await store.close();
    }
  });
});

describe('MongoCatalogStore on a database an earlier version set up', () => {
  const server = wireServer();

  test('indexes under retired names are dropped at open and the current ones created; opening again changes nothing', async () => {
    const url = withDatabase(server().uri, `predgate_retired_${process.pid}`);
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
    try {
      const events = client.db().collection('events');
      await events.createIndexes([
        { key: { venue: 1, slug: 1 }, name: 'by_slug' },
        { key: { marketSlugs: 1 }, name: 'by_market_slug' },
      ]);
      const names = async () => (await events.listIndexes().toArray()).map((index) => index.name as string).sort();
      for (let opening = 0; opening < 2; opening += 1) {
        const store = new MongoCatalogStore({ url });
        await store.open();
        await store.close();
        expect(await names()).toEqual(['_id_', ...eventIndexes.map((index) => index.name)].sort());
      }
    } finally {
      await client.db().dropDatabase();
      await client.close();
    }
  });

  test('a fresh database opens without the retired indexes to drop', async () => {
    const url = withDatabase(server().uri, `predgate_fresh_${process.pid}`);
    const store = new MongoCatalogStore({ url });
    await expect(store.open()).resolves.toBeUndefined();
    await store.close();
  });
});

const realServer = process.env.MONGODB_URI;
if (!realServer) console.warn('MongoCatalogStore on a real MongoDB: skipped (set MONGODB_URI=mongodb://... to run the contract suite against it)');

describe.skipIf(!realServer)('MongoCatalogStore on a real MongoDB server (MONGODB_URI)', () => {
  catalogStoreContract(targetOn(() => realServer!));
});

describe('MongoCatalogStore when the database is unreachable', () => {
  test('reads fail with CATALOG_UNAVAILABLE, retryable', async () => {
    const store = new MongoCatalogStore({ url: 'mongodb://127.0.0.1:1/predgate', serverSelectionTimeoutMS: 200 });
    await expect(store.open()).rejects.toMatchObject({ code: 'CATALOG_UNAVAILABLE', retryable: true, status: 503 });
    await expect(store.events({ status: 'all', order: 'router', limit: 1, offset: 0 })).rejects.toMatchObject({ code: 'CATALOG_UNAVAILABLE' });
    await store.close();
  });

  test('an operator’s serverSelectionTimeoutMS in the URL is the one the driver uses; otherwise 5 s', async () => {
    const chosen = new MongoCatalogStore({ url: 'mongodb://127.0.0.1:1/predgate?serverSelectionTimeoutMS=300' });
    const defaulted = new MongoCatalogStore({ url: 'mongodb://127.0.0.1:1/predgate' });
    expect(chosen.database.client.options.serverSelectionTimeoutMS).toBe(300);
    expect(defaulted.database.client.options.serverSelectionTimeoutMS).toBe(5_000);
    await chosen.close();
    await defaulted.close();
  });
});
