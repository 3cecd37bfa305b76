import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connectedClient, freshDatabase, type TestDocument } from './harness.js';

const connection = connectedClient();

describe('unique indexes', () => {
  it('rejects a duplicate insert with E11000, naming the index and the key', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    expect(await collection.createIndex({ venue: 1, ticker: 1 }, { unique: true, name: 'venue_ticker' })).toBe('venue_ticker');
    await collection.insertOne({ venue: 'kalshi', ticker: 'RAIN' });
    await collection.insertOne({ venue: 'polymarket', ticker: 'RAIN' });

    const error = await collection.insertOne({ venue: 'kalshi', ticker: 'RAIN' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({
      code: 11000,
      keyPattern: { venue: 1, ticker: 1 },
      keyValue: { venue: 'kalshi', ticker: 'RAIN' },
    });
    expect((error as Error).message).toMatch(/E11000 duplicate key error collection: .*\.events index: venue_ticker dup key/);
    expect(await collection.countDocuments()).toBe(2);
  });

  it('enforces _id uniqueness without any createIndex', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertOne({ _id: 1 });
    await expect(collection.insertOne({ _id: 1 })).rejects.toMatchObject({ code: 11000, keyValue: { _id: 1 } });
  });

  it('rejects updates and upserts that would collide, leaving the data unchanged', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ slug: 1 }, { unique: true });
    await collection.insertMany([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ]);

    await expect(collection.updateOne({ _id: 2 }, { $set: { slug: 'a' } })).rejects.toMatchObject({ code: 11000 });
    await expect(collection.updateOne({ _id: 3 }, { $set: { slug: 'b' } }, { upsert: true })).rejects.toMatchObject({ code: 11000 });
    await expect(collection.findOneAndReplace({ _id: 1 }, { slug: 'b' })).rejects.toMatchObject({ code: 11000 });
    expect(await collection.find({}).toArray()).toEqual([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ]);

    // A key freed by an update or a delete can be taken again.
    await collection.updateOne({ _id: 1 }, { $set: { slug: 'c' } });
    await collection.deleteOne({ _id: 2 });
    await collection.insertMany([
      { _id: 3, slug: 'a' },
      { _id: 4, slug: 'b' },
    ]);
    expect(await collection.countDocuments()).toBe(3);
  });

  it('surfaces duplicates inside bulkWrite as MongoBulkWriteError, ordered and unordered', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ slug: 1 }, { unique: true });
    const operations = [{ insertOne: { document: { slug: 'a' } } }, { insertOne: { document: { slug: 'a' } } }, { insertOne: { document: { slug: 'b' } } }];

    const ordered = await collection.bulkWrite(operations).catch((thrown: unknown) => thrown);
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
    expect((ordered as MongoBulkWriteError).result.insertedCount).toBe(1);
    expect(await collection.countDocuments()).toBe(1);

    await collection.deleteMany({});
    const unordered = await collection.bulkWrite(operations, { ordered: false }).catch((thrown: unknown) => thrown);
    expect(unordered).toBeInstanceOf(MongoBulkWriteError);
    expect((unordered as MongoBulkWriteError).result.insertedCount).toBe(2);
    expect(
      await collection
        .find({}, { projection: { _id: 0 } })
        .sort({ slug: 1 })
        .toArray(),
    ).toEqual([{ slug: 'a' }, { slug: 'b' }]);
  });

  it('answers lookups on a unique key exactly as a scan would', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ slug: 1 }, { unique: true });
    await collection.insertMany([
      { _id: 1, slug: 'a', live: true },
      { _id: 2, slug: ['b', 'c'], live: false },
    ]);

    expect(await collection.findOne({ slug: 'a', live: false })).toBeNull();
    expect(await collection.findOne({ slug: 'c' })).toMatchObject({ _id: 2 });
    expect(await collection.countDocuments({ slug: /^[ab]$/ })).toBe(2);
    expect(await collection.countDocuments({ slug: 'zz' })).toBe(0);
    expect((await collection.updateOne({ _id: 1 }, { $set: { slug: 'd' } })).modifiedCount).toBe(1);
    expect(await collection.findOne({ slug: 'a' })).toBeNull();
    expect(await collection.findOne({ slug: 'd' })).toMatchObject({ _id: 1 });
  });

  it('lets a sparse unique index skip documents without the field', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ externalId: 1 }, { unique: true, sparse: true });
    await collection.insertMany([{ name: 'a' }, { name: 'b' }, { externalId: 'x' }]);
    await expect(collection.insertOne({ externalId: 'x' })).rejects.toMatchObject({ code: 11000 });
  });

  it('honours partialFilterExpression', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ slug: 1 }, { unique: true, partialFilterExpression: { live: true } });
    await collection.insertMany([
      { slug: 'a', live: false },
      { slug: 'a', live: false },
      { slug: 'a', live: true },
    ]);
    await expect(collection.insertOne({ slug: 'a', live: true })).rejects.toMatchObject({ code: 11000 });
  });

  it('refuses to build a unique index over duplicate data', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertMany([{ slug: 'a' }, { slug: 'a' }]);
    await expect(collection.createIndex({ slug: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    expect((await collection.indexes()).map((index) => index.name)).toEqual(['_id_']);
  });
});

describe('indexes', () => {
  it('lists, re-creates idempotently and drops indexes', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.createIndex({ closesAt: -1 });
    await collection.createIndex({ slug: 1 }, { unique: true });
    expect(await collection.createIndex({ slug: 1 }, { unique: true })).toBe('slug_1');

    expect(await collection.indexes()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { closesAt: -1 }, name: 'closesAt_-1' },
      { v: 2, key: { slug: 1 }, name: 'slug_1', unique: true },
    ]);
    expect(await collection.indexExists('slug_1')).toBe(true);

    await expect(collection.createIndex({ slug: 1 }, { name: 'other' })).rejects.toMatchObject({ code: 85 });

    await collection.dropIndex('closesAt_-1');
    expect((await collection.indexes()).map((index) => index.name)).toEqual(['_id_', 'slug_1']);
    await expect(collection.dropIndex('nope')).rejects.toMatchObject({ code: 27 });

    await collection.dropIndexes();
    expect((await collection.indexes()).map((index) => index.name)).toEqual(['_id_']);
    // Dropping the unique index lifts its constraint.
    await collection.insertMany([{ slug: 'x' }, { slug: 'x' }]);
  });

  it('fails to list the indexes of a missing collection with NamespaceNotFound', async () => {
    await expect(freshDatabase(connection.client).collection<TestDocument>('missing').indexes()).rejects.toMatchObject({ code: 26 });
  });
});

describe('collections and databases', () => {
  it('creates, lists and drops collections', async () => {
    const db = freshDatabase(connection.client);
    await db.createCollection('events');
    await db.collection<TestDocument>('markets').insertOne({ _id: 1 });
    await expect(db.createCollection('events')).rejects.toMatchObject({ code: 48 });

    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name).sort();
    expect(names).toEqual(['events', 'markets']);
    expect(await db.listCollections({ name: 'markets' }).toArray()).toMatchObject([{ name: 'markets', type: 'collection' }]);

    expect(await db.collection<TestDocument>('markets').drop()).toBe(true);
    expect(await db.dropCollection('never-existed')).toBe(true);
    expect((await db.collections()).map((collection) => collection.collectionName)).toEqual(['events']);
    expect(await db.collection<TestDocument>('markets').countDocuments()).toBe(0);
  });

  it('renames a freshly built collection over the live one', async () => {
    const db = freshDatabase(connection.client);
    const live = db.collection<TestDocument>('events');
    await live.createIndex({ slug: 1 }, { unique: true });
    await live.insertMany([{ slug: 'old-1' }, { slug: 'old-2' }]);
    const staging = db.collection<TestDocument>('events_staging');
    await staging.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
    await staging.insertMany([{ slug: 'new-1' }]);

    await expect(staging.rename('events')).rejects.toMatchObject({ code: 48 });
    await staging.rename('events', { dropTarget: true });

    expect(await live.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ slug: 'new-1' }]);
    expect((await live.indexes()).map((index) => index.name)).toEqual(['_id_', 'slug_unique']);
    await expect(live.insertOne({ slug: 'new-1' })).rejects.toMatchObject({ code: 11000 });
    expect((await db.listCollections().toArray()).map((info) => info.name)).toEqual(['events']);
    await expect(db.collection<TestDocument>('nothing').rename('else')).rejects.toMatchObject({ code: 26 });
  });

  it('lists and drops databases', async () => {
    const db = freshDatabase(connection.client);
    await db.collection<TestDocument>('events').insertOne({ _id: 1 });
    const listed = async (): Promise<string[]> => (await connection.client.db().admin().listDatabases()).databases.map((info) => info.name);

    expect(await listed()).toContain(db.databaseName);
    expect(await db.dropDatabase()).toBe(true);
    expect(await listed()).not.toContain(db.databaseName);
    expect(await db.collection<TestDocument>('events').countDocuments()).toBe(0);
  });
});
