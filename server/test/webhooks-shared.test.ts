import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { MongoSweepLeases } from '@predgate/catalog';
import { silentLogger, systemClock } from '@predgate/core';
import { until } from '@predgate/core/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { doubleAndRealServer } from '../../catalog/test/mongo-wire/harness.js';
import { MongoJournal, journalStateCollectionName } from '../src/webhooks/mongo-journal.js';
import type { LogFollower } from '../src/webhooks/record-log.js';
import { WebhookService } from '../src/webhooks/service.js';
import type { WebhookSettings } from '../src/webhooks/service.js';
import { Receiver } from './webhook-receiver.js';

interface Entry {
  n: number;
  from?: string;
}

/** A follower that keeps what it is given, so a test can wait for what a replica has seen. */
function keeper(initial: Entry[]) {
  const seen = { records: [...initial], resets: 0 };
  const follower: LogFollower<Entry> = {
    records: (records) => seen.records.push(...records),
    reset: (records) => {
      seen.resets += 1;
      seen.records = [...records];
    },
  };
  return { seen, follower };
}

const settings: WebhookSettings = {
  allowHttp: true,
  allowedNetworks: ['127.0.0.1'],
  maxPerKey: 5,
  timeoutMs: 2_000,
  concurrency: 8,
  firstRetryMs: 1,
  maxRetryMs: 20,
  retryForHours: 24,
};

describe.each(doubleAndRealServer('shared webhooks'))('webhooks shared by replicas on one MongoDB ($where)', ({ uri, skip }) => {
  let client: MongoClient;
  let databases = 0;
  const fresh = (): Db => client.db(`predgate_webhooks_${process.pid}_${(databases += 1)}`);
  const closing: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (skip) return;
    client = await new MongoClient(uri(), { serverSelectionTimeoutMS: 2_000 }).connect();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    if (skip) return;
    for (let index = 1; index <= databases; index += 1) await client.db(`predgate_webhooks_${process.pid}_${index}`).dropDatabase();
    await client.close();
  });

  async function journal(db: Db, writer: string, gapPatienceMs?: number) {
    const opened = await MongoJournal.open<Entry>(db, { writer, onError: (error) => expect.fail(String(error)), ...(gapPatienceMs ? { gapPatienceMs } : {}) });
    closing.push(() => opened.journal.close());
    return opened;
  }

  test.skipIf(skip)('each replica reads what the others append, in order, and not its own records back', async () => {
    const db = fresh();
    const a = await journal(db, 'a');
    const b = await journal(db, 'b');
    const atB = keeper(b.records);
    b.journal.follow(atB.follower);
    const atA = keeper(a.records);
    a.journal.follow(atA.follower);
    await Promise.all([1, 2, 3].map((n) => a.journal.append({ n, from: 'a' })));
    await b.journal.append({ n: 4, from: 'b' });
    await until(() => atB.seen.records.length === 3 && atA.seen.records.length === 1, 'each has read the other’s records');
    expect(atB.seen.records).toEqual([1, 2, 3].map((n) => ({ n, from: 'a' })));
    expect(atA.seen.records).toEqual([{ n: 4, from: 'b' }]);
    // A replica starting now reads every record, whoever wrote it.
    expect((await journal(db, 'c')).records.map((entry) => entry.n).sort()).toEqual([1, 2, 3, 4]);
  });

  test.skipIf(skip)('a rewrite keeps the snapshot and every record after it; a replica that had not read what it replaced starts again from it', async () => {
    const db = fresh();
    const a = await journal(db, 'a');
    await Promise.all([1, 2, 3, 4].map((n) => a.journal.append({ n })));
    expect(a.journal.appended).toBe(4);
    // The snapshot keeps even numbers only, so what it replaced and what came after it can be told apart.
    await a.journal.rewrite(() => [{ n: 2 }, { n: 4 }]);
    expect(a.journal.appended).toBe(0);
    await a.journal.append({ n: 5 });
    expect((await journal(db, 'fresh')).records).toEqual([{ n: 2 }, { n: 4 }, { n: 5 }]);

    // B opened before a second rewrite and did not read the records it replaced.
    const b = await journal(db, 'b');
    const atB = keeper(b.records);
    await a.journal.append({ n: 6 });
    await a.journal.rewrite(() => [{ n: 6 }]);
    b.journal.follow(atB.follower);
    await until(() => atB.seen.resets === 1, 'B starts again from the snapshot');
    expect(atB.seen.records).toEqual([{ n: 6 }]);
  });

  test.skipIf(skip)('a number a writer reserved and never wrote (it died) holds readers back only for a while', async () => {
    const db = fresh();
    const b = await journal(db, 'b', 50);
    const atB = keeper(b.records);
    b.journal.follow(atB.follower);
    const a = await journal(db, 'a');
    await a.journal.append({ n: 1 });
    // A writer that reserved number 2 and died.
    await db.collection<{ _id: string; n: number }>(journalStateCollectionName).updateOne({ _id: 'sequence' }, { $inc: { n: 1 } });
    await a.journal.append({ n: 3 });
    await until(() => atB.seen.records.length === 2, 'B reads past the missing number');
    expect(atB.seen.records).toEqual([{ n: 1 }, { n: 3 }]);
  });

  describe('two gateways', () => {
    let receiver: Receiver;
    beforeEach(async () => {
      receiver = new Receiver();
      await receiver.start();
      closing.push(() => receiver.stop());
    });

    async function replica(db: Db, holder: string): Promise<WebhookService> {
      const service = await WebhookService.open({
        dir: '/nonexistent: shared webhooks keep nothing on disk',
        settings,
        shared: { db, holder, leases: new MongoSweepLeases(db), leaseMs: 300 },
        clock: systemClock,
        logger: silentLogger,
      });
      closing.push(() => service.close());
      return service;
    }

    test.skipIf(skip)(
      'a subscription made on one is served by the other; a notification made on either is sent once, by the leader, and by the other once it is gone',
      async () => {
        const db = fresh();
        const first = await replica(db, 'first');
        const second = await replica(db, 'second');
        const { subscription, secret } = await second.subscribe('key-1', { url: receiver.url, events: [{ kind: 'market.resolved', filter: {} }] });
        receiver.secret = secret;
        // The secret is the same whichever replica derives it: they share the signing key.
        expect(first.secretOf(subscription.id)).toBe(secret);
        await until(() => first.list('key-1').length === 1, 'the first replica serves the subscription');
        expect(first.get('key-1', subscription.id)).toEqual(subscription);

        // Both find the same change (as two replicas diffing one sweep would): the receiver gets it once.
        const notification = { kind: 'market.resolved' as const, key: 'venue:m1', data: { marketId: 'm1' } };
        await Promise.all([first.notify(first.get('key-1', subscription.id), notification), second.notify(subscription, notification)]);
        await until(() => receiver.received.length === 1, 'the notification is sent');
        await until(
          () => second.deliveriesOf('key-1', subscription.id, { limit: 10, offset: 0 }).items[0]?.state === 'delivered',
          'the other replica shows it delivered',
        );
        expect(receiver.verifies(receiver.received[0]!)).toBe(true);

        // The leader stops; the other takes the lead and sends what is made from then on.
        await first.close();
        await second.notify(subscription, { kind: 'market.resolved', key: 'venue:m2', data: { marketId: 'm2' } });
        await until(() => receiver.received.length === 2, 'the next leader sends the next notification');
        expect([...receiver.acknowledged().values()]).toEqual([1, 1]);
        expect(receiver.received.every((entry) => receiver.verifies(entry))).toBe(true);
      },
    );

    test.skipIf(skip)('a replica starting as the sender sends each pending notification once', async () => {
      const db = fresh();
      const first = await replica(db, 'first');
      const { subscription } = await first.subscribe('key-1', { url: receiver.url, events: [{ kind: 'market.resolved', filter: {} }] });
      // The receiver is down: the notification stays pending when the first replica stops.
      const port = receiver.port;
      await receiver.stop();
      await first.notify(subscription, { kind: 'market.resolved', key: 'venue:m3', data: { marketId: 'm3' } });
      // Retries start a millisecond apart here: by the time this looks, more than one attempt may have failed.
      await until(() => (first.deliveriesOf('key-1', subscription.id, { limit: 1, offset: 0 }).items[0]?.attempts.length ?? 0) >= 1, 'an attempt failed');
      await first.close();
      await receiver.start(port);
      const second = await replica(db, 'second');
      await until(() => second.deliveriesOf('key-1', subscription.id, { limit: 1, offset: 0 }).items[0]?.state === 'delivered', 'it is delivered');
      await second.close();
      expect(receiver.received).toHaveLength(1);
    });
  });
});
