import { MongoBulkWriteError, MongoServerError, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connectedClient, freshDatabase, type TestDocument } from './harness.js';

const connection = connectedClient();

describe('writes through the real driver', () => {
  it('inserts documents and returns the ids the driver generated', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    const result = await collection.insertMany([{ name: 'a' }, { name: 'b' }]);

    expect(result.insertedCount).toBe(2);
    const stored = await collection.find({}).toArray();
    expect(stored.map((event) => String(event._id))).toEqual(Object.values(result.insertedIds).map(String));
    expect(stored[0]?._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(stored[0] ?? {})).toEqual(['_id', 'name']);
  });

  it('updates one or many documents with $set, $inc and $unset', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany([
      { _id: 1, venue: 'kalshi', volume: 10, stale: true },
      { _id: 2, venue: 'kalshi', volume: 20, stale: true },
      { _id: 3, venue: 'manifold', volume: 30 },
    ]);

    const one = await collection.updateOne({ venue: 'kalshi' }, { $inc: { volume: 5 } });
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });

    const many = await collection.updateMany({ venue: 'kalshi' }, { $set: { checked: true }, $unset: { stale: '' } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });

    const unchanged = await collection.updateMany({ venue: 'kalshi' }, { $set: { checked: true } });
    expect(unchanged).toMatchObject({ matchedCount: 2, modifiedCount: 0 });

    expect(await collection.find({}).toArray()).toEqual([
      { _id: 1, venue: 'kalshi', volume: 15, checked: true },
      { _id: 2, venue: 'kalshi', volume: 20, checked: true },
      { _id: 3, venue: 'manifold', volume: 30 },
    ]);
  });

  it('upserts from the filter, applying $setOnInsert only on insert', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    const update = { $set: { title: 'Rain' }, $setOnInsert: { createdBy: 'ingest' }, $inc: { seen: 1 } };

    const inserted = await collection.updateOne({ venue: 'kalshi', ticker: 'RAIN' }, update, { upsert: true });
    expect(inserted).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });

    const again = await collection.updateOne({ venue: 'kalshi', ticker: 'RAIN' }, { ...update, $setOnInsert: { createdBy: 'other' } }, { upsert: true });
    expect(again).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });

    const [stored] = await collection.find({}).toArray();
    expect(stored).toEqual({ _id: inserted.upsertedId, venue: 'kalshi', ticker: 'RAIN', title: 'Rain', createdBy: 'ingest', seen: 2 });

    const withId = await collection.updateOne({ _id: 'fixed-id' }, { $set: { n: 1 } }, { upsert: true });
    expect(withId.upsertedId).toBe('fixed-id');
  });

  it('replaces a document, keeping its _id, and upserts a replacement', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertOne({ _id: 1, title: 'old', extra: true });

    expect(await collection.replaceOne({ _id: 1 }, { title: 'new' })).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, title: 'new' });

    const upserted = await collection.replaceOne({ _id: 2 }, { title: 'created' }, { upsert: true });
    expect(upserted.upsertedId).toBe(2);
    expect(await collection.findOne({ _id: 2 })).toEqual({ _id: 2, title: 'created' });
  });

  it('applies an aggregation pipeline update', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany([
      { _id: 1, yes: 30, no: 70 },
      { _id: 2, yes: 10, no: 10 },
    ]);

    const result = await collection.updateMany({}, [{ $set: { total: { $add: ['$yes', '$no'] } } }, { $unset: 'no' }]);
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await collection.find({}).toArray()).toEqual([
      { _id: 1, yes: 30, total: 100 },
      { _id: 2, yes: 10, total: 20 },
    ]);
  });

  it('refuses to change _id', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertOne({ _id: 1 });

    await expect(collection.replaceOne({ _id: 1 }, { _id: 2 })).rejects.toMatchObject({ code: 66 });
    await expect(collection.updateOne({ _id: 1 }, { $set: { _id: 2 } })).rejects.toBeInstanceOf(MongoServerError);
    expect(await collection.find({}).toArray()).toEqual([{ _id: 1 }]);
  });

  it('updates the array element the filter matched with the positional $', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertOne({
      _id: 1,
      outcomes: [
        { name: 'yes', price: 0.4 },
        { name: 'no', price: 0.6 },
      ],
    });

    await collection.updateOne({ 'outcomes.name': 'yes' }, { $inc: { 'outcomes.$.price': 0.1 } });
    expect(await collection.findOne({ _id: 1 })).toEqual({
      _id: 1,
      outcomes: [
        { name: 'yes', price: 0.5 },
        { name: 'no', price: 0.6 },
      ],
    });
  });

  it('updates array elements chosen by arrayFilters', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertOne({
      _id: 1,
      outcomes: [
        { name: 'yes', price: 0.4 },
        { name: 'no', price: 0.6 },
      ],
    });

    await collection.updateOne({ _id: 1 }, { $set: { 'outcomes.$[o].price': 0.7 } }, { arrayFilters: [{ 'o.name': 'no' }] });
    expect(await collection.findOne({ _id: 1 })).toEqual({
      _id: 1,
      outcomes: [
        { name: 'yes', price: 0.4 },
        { name: 'no', price: 0.7 },
      ],
    });
  });

  it('deletes one or many documents', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertMany([
      { _id: 1, old: true },
      { _id: 2, old: true },
      { _id: 3, old: false },
      { _id: 4, old: true },
    ]);

    expect((await collection.deleteOne({ old: true })).deletedCount).toBe(1);
    expect((await collection.deleteMany({ old: true })).deletedCount).toBe(2);
    expect((await collection.deleteMany({ old: true })).deletedCount).toBe(0);
    expect(await collection.find({}).toArray()).toEqual([{ _id: 3, old: false }]);
  });

  it('runs an ordered bulkWrite of mixed operations', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);

    const result = await collection.bulkWrite([
      { insertOne: { document: { _id: 3, n: 3 } } },
      { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 10 } } } },
      { updateMany: { filter: { n: { $gte: 2 } }, update: { $set: { big: true } } } },
      { replaceOne: { filter: { _id: 9 }, replacement: { n: 9 }, upsert: true } },
      { deleteOne: { filter: { _id: 2 } } },
    ]);

    expect(result).toMatchObject({ insertedCount: 1, matchedCount: 4, modifiedCount: 4, upsertedCount: 1, deletedCount: 1 });
    expect(result.upsertedIds).toEqual({ 3: 9 });
    expect(await collection.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 11, big: true },
      { _id: 3, n: 3, big: true },
      { _id: 9, n: 9 },
    ]);
  });

  it('runs an unordered bulkWrite', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    const result = await collection.bulkWrite(
      [
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 2 } } },
        { deleteMany: { filter: {} } },
        { insertOne: { document: { _id: 3 } } },
      ],
      { ordered: false },
    );
    // The driver groups an unordered batch by kind, so all three inserts run before the delete.
    expect(result).toMatchObject({ insertedCount: 3, deletedCount: 3 });
    expect(await collection.countDocuments()).toBe(0);
  });

  it('findOneAndUpdate, findOneAndReplace and findOneAndDelete return the right document', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('jobs');
    await collection.insertMany([
      { _id: 1, priority: 1, state: 'queued' },
      { _id: 2, priority: 5, state: 'queued' },
    ]);

    const claimed = await collection.findOneAndUpdate(
      { state: 'queued' },
      { $set: { state: 'running' } },
      { sort: { priority: -1 }, returnDocument: 'after', projection: { state: 1 } },
    );
    expect(claimed).toEqual({ _id: 2, state: 'running' });

    const before = await collection.findOneAndReplace({ _id: 1 }, { priority: 1, state: 'done' });
    expect(before).toEqual({ _id: 1, priority: 1, state: 'queued' });

    const created = await collection.findOneAndUpdate({ _id: 3 }, { $set: { state: 'queued' } }, { upsert: true, returnDocument: 'after' });
    expect(created).toEqual({ _id: 3, state: 'queued' });
    expect(await collection.findOneAndUpdate({ _id: 4 }, { $set: { state: 'x' } })).toBeNull();

    const withMetadata = await collection.findOneAndDelete({ state: 'done' }, { includeResultMetadata: true });
    expect(withMetadata).toMatchObject({ ok: 1, value: { _id: 1, priority: 1, state: 'done' }, lastErrorObject: { n: 1 } });
    expect(await collection.findOneAndDelete({ state: 'done' })).toBeNull();
    expect(await collection.countDocuments()).toBe(2);
  });

  it('reports an unknown update operator as a server error', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertOne({ _id: 1 });
    await expect(collection.updateOne({ _id: 1 }, { $explode: { a: 1 } } as never)).rejects.toBeInstanceOf(MongoServerError);
  });

  it('keeps bulk results intact when a statement fails in a write batch', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    const attempt = collection.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }], { ordered: false });
    const error = await attempt.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect((error as MongoBulkWriteError).writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
    expect(await collection.countDocuments()).toBe(2);
  });
});
