import { once } from 'node:events';
import { connect } from 'node:net';
import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connectedClient, freshDatabase, newClient, type TestDocument } from './harness.js';
import { startMongoWireServer } from './index.js';

const connection = connectedClient();

describe('handshake and server commands', () => {
  it('answers hello as a writable standalone the driver 7 accepts', async () => {
    const hello = await connection.client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({ ok: 1, isWritablePrimary: true });
    expect(hello.setName).toBeUndefined();
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(21);
    expect(hello.logicalSessionTimeoutMinutes).toBeGreaterThan(0);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(hello.maxWriteBatchSize).toBeGreaterThan(0);
  });

  it('answers ping and buildInfo', async () => {
    expect(await connection.client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
    const info = await connection.client.db('admin').command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.versionArray[0]).toBeGreaterThanOrEqual(7);
  });

  it('rejects an unknown command with CommandNotFound', async () => {
    const error = await connection.client
      .db('admin')
      .command({ frobnicate: 1 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
  });

  it('lets two clients see the same data', async () => {
    const other = newClient(connection.target.uri);
    try {
      const name = freshDatabase(connection.client).databaseName;
      await connection.client.db(name).collection<TestDocument>('events').insertOne({ _id: 'shared', by: 'first' });
      expect(await other.db(name).collection<TestDocument>('events').findOne({ _id: 'shared' })).toEqual({ _id: 'shared', by: 'first' });

      await other
        .db(name)
        .collection<TestDocument>('events')
        .updateOne({ _id: 'shared' }, { $set: { by: 'second' } });
      expect(await connection.client.db(name).collection<TestDocument>('events').findOne({ _id: 'shared' })).toEqual({ _id: 'shared', by: 'second' });
    } finally {
      await other.close();
    }
  });

  it('serves concurrent operations over several pooled connections', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    await Promise.all(Array.from({ length: 40 }, (_, index) => collection.insertOne({ _id: index })));
    const found = await Promise.all(Array.from({ length: 40 }, (_, index) => collection.findOne({ _id: index })));
    expect(found).toEqual(Array.from({ length: 40 }, (_, index) => ({ _id: index })));
  });

  it('applies unacknowledged writes (OP_MSG moreToCome) without replying', async () => {
    const collection = freshDatabase(connection.client).collection<TestDocument>('events');
    const result = await collection.insertOne({ _id: 1 }, { writeConcern: { w: 0 } });
    expect(result.acknowledged).toBe(false);
    // The next command on the same connection is read only after the
    // unacknowledged one has been applied.
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1 });
  });
});

// These run against a double of their own even when MONGODB_URI is set.
describe('the double itself', () => {
  it('rejects transactions with a clear error', async () => {
    const double = await startMongoWireServer();
    const own = newClient(double.uri);
    const session = own.startSession();
    try {
      session.startTransaction();
      const orders = own.db('shop').collection<TestDocument>('orders');
      await expect(orders.insertOne({ _id: 1 }, { session })).rejects.toThrow(/transactions are not supported/);
      await expect(orders.findOne({}, { session })).rejects.toMatchObject({ code: 238, codeName: 'NotImplemented' });
      await session.abortTransaction();
    } finally {
      await session.endSession();
      await own.close();
      await double.close();
    }
  });

  it('forgets every database on reset()', async () => {
    const double = await startMongoWireServer();
    const own = newClient(double.uri);
    try {
      await own.db('shop').collection<TestDocument>('orders').insertOne({ _id: 1 });
      double.reset();
      expect(await own.db('shop').collection<TestDocument>('orders').countDocuments()).toBe(0);
      expect((await own.db().admin().listDatabases()).databases).toEqual([]);
    } finally {
      await own.close();
      await double.close();
    }
  });

  it('closes while clients are still connected', async () => {
    const double = await startMongoWireServer();
    const own = newClient(double.uri);
    await own.db('admin').command({ ping: 1 });
    // server.close() only completes once every connection is gone, so this
    // resolving shows close() ended the connection.client's sockets itself.
    await double.close();
    await own.close();
  });

  it('drops a connection that sends garbage and keeps serving the others', async () => {
    const double = await startMongoWireServer();
    const own = newClient(double.uri);
    try {
      const socket = connect(double.port, '127.0.0.1');
      const closed = once(socket, 'close');
      socket.write(Buffer.from([3, 0, 0, 0])); // a message length below the 16-byte header
      await closed;
      expect(await own.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
    } finally {
      await own.close();
      await double.close();
    }
  });

  it('validates its options', async () => {
    await expect(startMongoWireServer({ port: -1 })).rejects.toThrow(/options\.port/);
  });
});
