import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { doubleAndRealServer } from '../../catalog/test/mongo-wire/harness.js';
import { RequestBudget } from '../src/keys/request-budget.js';

describe.each(doubleAndRealServer('shared request budgets'))('request budgets kept in $where', ({ uri, skip }) => {
  // Two clients, as two gateway processes would have.
  const clients: MongoClient[] = [];
  const database = `predgate_budget_${process.pid}`;
  beforeAll(async () => {
    if (skip) return;
    for (let index = 0; index < 2; index += 1) clients.push(await new MongoClient(uri(), { serverSelectionTimeoutMS: 2_000 }).connect());
  });
  afterAll(async () => {
    if (skip) return;
    await clients[0]!.db(database).dropDatabase();
    await Promise.all(clients.map((client) => client.close()));
  });

  test.skipIf(skip)('gateways sharing the database share one budget per key: together they allow exactly the limit', async () => {
    const limit = { requests: 5, windowSeconds: 60 };
    const gateways = clients.map((client) => new RequestBudget(limit, { db: client.db(database) }));
    const outcomes: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const gateway = gateways[index % 2]!;
      outcomes.push(
        await gateway.spend('key_shared').then(
          (state) => `ok:${state?.remaining}`,
          (error: { code: string }) => error.code,
        ),
      );
    }
    expect(outcomes).toEqual(['ok:4', 'ok:3', 'ok:2', 'ok:1', 'ok:0', 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED']);
    // Another key has a budget of its own.
    await expect(gateways[1]!.spend('key_other')).resolves.toMatchObject({ limit: 5, remaining: 4 });
  });
});
