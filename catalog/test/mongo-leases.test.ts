import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MongoSweepLeases } from '../src/mongo/mongo-leases.js';
import { doubleAndRealServer } from './mongo-wire/harness.js';

describe.each(doubleAndRealServer('sweep leases'))('sweep leases on $where', ({ uri, skip }) => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    if (skip) return;
    client = await new MongoClient(uri(), { serverSelectionTimeoutMS: 2_000 }).connect();
    db = client.db(`predgate_leases_${process.pid}`);
  });
  afterAll(async () => {
    if (skip) return;
    await db.dropDatabase();
    await client.close();
  });

  test.skipIf(skip)('one holder per venue: renewed by it, refused to others until released or expired', async () => {
    const leases = new MongoSweepLeases(db);
    const minute = 60_000;
    expect(await leases.claim('kalshi', 'a', minute)).toMatchObject({ holder: 'a' });
    expect(await leases.claim('kalshi', 'b', minute)).toMatchObject({ holder: 'a' });
    // Venues are leased one by one.
    expect(await leases.claim('polymarket', 'b', minute)).toMatchObject({ holder: 'b' });
    const renewed = await leases.claim('kalshi', 'a', minute);
    expect(renewed.holder).toBe('a');
    // Only the holder can release.
    await leases.release('kalshi', 'b');
    expect(await leases.claim('kalshi', 'b', minute)).toMatchObject({ holder: 'a' });
    await leases.release('kalshi', 'a');
    expect(await leases.claim('kalshi', 'b', minute)).toMatchObject({ holder: 'b' });
    // A lease that has run out (here, one granted for no time at all) goes to the next claimant.
    await leases.claim('polymarket', 'b', 0);
    expect(await leases.claim('polymarket', 'a', minute)).toMatchObject({ holder: 'a' });
  });
});
