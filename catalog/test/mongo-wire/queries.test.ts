import { Long } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { commandsSentDuring, connectedClient, freshDatabase, type TestDocument } from './harness.js';

const connection = connectedClient();

const markets = [
  { _id: 1, venue: 'kalshi', title: 'Rain in NYC', volume: 500, tags: ['weather', 'nyc'] },
  { _id: 2, venue: 'polymarket', title: 'Fed cuts rates', volume: 9000, tags: ['economy'] },
  { _id: 3, venue: 'kalshi', title: 'Fed holds rates', volume: 7000, tags: ['economy'] },
  { _id: 4, venue: 'kalshi', title: 'Snow in Boston', volume: 50, tags: ['weather'] },
  { _id: 5, venue: 'manifold', title: 'Election turnout', volume: 1200, tags: [] },
];

describe('reads through the real driver', () => {
  it('finds with filter, sort, skip, limit and projection', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany(markets);

    const page = await collection
      .find({ venue: 'kalshi' }, { projection: { title: 1, _id: 0 } })
      .sort({ volume: -1 })
      .skip(1)
      .limit(1)
      .toArray();
    expect(page).toEqual([{ title: 'Rain in NYC' }]);

    const byTag = await collection.find({ tags: 'economy', volume: { $gte: 8000 } }).toArray();
    expect(byTag.map((market) => market._id)).toEqual([2]);
    expect(await collection.findOne({ _id: 4 })).toEqual(markets[3]);
    expect(await collection.findOne({ _id: 99 })).toBeNull();
  });

  it('reads an empty result from a collection that does not exist', async () => {
    expect(await freshDatabase(connection.client).collection<TestDocument>('missing').find({}).toArray()).toEqual([]);
  });

  it('returns large results in batches fetched with getMore', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertMany(Array.from({ length: 250 }, (_, index) => ({ _id: index, rank: 250 - index })));

    let seen: number[] = [];
    const sent = await commandsSentDuring(connection.client, async () => {
      seen = (await collection.find({}).sort({ rank: 1 }).batchSize(20).toArray()).map((event) => event.rank as number);
    });

    expect(seen).toEqual(Array.from({ length: 250 }, (_, index) => index + 1));
    expect(sent[0]).toBe('find');
    expect(sent.filter((name) => name === 'getMore').length).toBeGreaterThanOrEqual(12);
  });

  it('answers getMore on an unknown cursor with CursorNotFound', async () => {
    const db = freshDatabase(connection.client);
    await expect(db.command({ getMore: Long.fromNumber(424242), collection: 'events' })).rejects.toMatchObject({ code: 43 });
  });

  it('kills a cursor that is closed before it is exhausted', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await collection.insertMany(Array.from({ length: 30 }, (_, index) => ({ index })));

    const sent = await commandsSentDuring(connection.client, async () => {
      const cursor = collection.find({}).batchSize(5);
      await cursor.next();
      await cursor.close();
    });
    expect(sent).toEqual(['find', 'killCursors']);
  });

  it('aggregates with $match, $sort, $skip, $limit, $group and $count', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany(markets);

    const page = await collection
      .aggregate([{ $match: { volume: { $gt: 100 } } }, { $sort: { volume: 1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }])
      .toArray();
    expect(page).toEqual([{ _id: 5 }, { _id: 3 }]);

    const perVenue = await collection.aggregate([{ $group: { _id: '$venue', total: { $sum: '$volume' } } }, { $sort: { _id: 1 } }]).toArray();
    expect(perVenue).toEqual([
      { _id: 'kalshi', total: 7550 },
      { _id: 'manifold', total: 1200 },
      { _id: 'polymarket', total: 9000 },
    ]);

    expect(await collection.aggregate([{ $match: { venue: 'kalshi' } }, { $count: 'n' }]).toArray()).toEqual([{ n: 3 }]);
    // Like mongod, $count over nothing yields no document rather than { n: 0 }.
    expect(await collection.aggregate([{ $match: { venue: 'none' } }, { $count: 'n' }]).toArray()).toEqual([]);
  });

  it('aggregates with $facet: a page and a total in one query', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany(markets);

    const [result] = await collection
      .aggregate([
        { $match: { tags: 'weather' } },
        { $facet: { page: [{ $sort: { volume: -1 } }, { $limit: 1 }, { $project: { title: 1 } }], total: [{ $count: 'n' }] } },
      ])
      .toArray();
    expect(result).toEqual({ page: [{ _id: 1, title: 'Rain in NYC' }], total: [{ n: 2 }] });

    const [empty] = await collection.aggregate([{ $match: { tags: 'sports' } }, { $facet: { page: [{ $limit: 1 }], total: [{ $count: 'n' }] } }]).toArray();
    expect(empty).toEqual({ page: [], total: [] });
  });

  it('joins another collection with $lookup without changing either', async () => {
    const db = freshDatabase(connection.client);
    await db.collection<TestDocument>('markets').insertMany(markets.slice(0, 2));
    await db.collection<TestDocument>('venues').insertMany([{ _id: 'kalshi', region: 'US' }]);

    const joined = await db
      .collection<TestDocument>('markets')
      .aggregate([
        { $lookup: { from: 'venues', localField: 'venue', foreignField: '_id', as: 'venueInfo' } },
        { $unwind: '$venueInfo' },
        { $set: { 'venueInfo.seen': true } },
      ])
      .toArray();
    expect(joined).toEqual([{ ...markets[0], venueInfo: { _id: 'kalshi', region: 'US', seen: true } }]);
    expect(await db.collection<TestDocument>('venues').findOne({})).toEqual({ _id: 'kalshi', region: 'US' });
  });

  it('counts with countDocuments and estimatedDocumentCount', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany(markets);

    expect(await collection.countDocuments()).toBe(5);
    expect(await collection.countDocuments({ venue: 'kalshi' }, { skip: 1, limit: 5 })).toBe(2);
    expect(await collection.estimatedDocumentCount()).toBe(5);
    expect(await freshDatabase(connection.client).collection<TestDocument>('empty').countDocuments()).toBe(0);
  });

  it('lists distinct values, unwinding arrays', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('markets');
    await collection.insertMany(markets);

    expect((await collection.distinct('venue')).sort()).toEqual(['kalshi', 'manifold', 'polymarket']);
    expect((await collection.distinct('tags', { venue: 'kalshi' })).sort()).toEqual(['economy', 'nyc', 'weather']);
  });
});
