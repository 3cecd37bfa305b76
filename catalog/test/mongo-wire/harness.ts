// Shared setup for the mongo-wire tests: the same tests run against the
// double, or against a real server when MONGODB_URI is set.
import { MongoClient, type CommandStartedEvent, type Db, type Document, type ObjectId } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { startMongoWireServer, type MongoWireServer } from './index.js';

/** Test documents use plain numbers and strings as _id; the driver's default type assumes ObjectId. */
export interface TestDocument extends Document {
  _id?: number | string | ObjectId;
}

export interface TestTarget {
  readonly uri: string;
  /** The double itself, or undefined when the tests run against a real server. */
  readonly double: MongoWireServer | undefined;
  close(): Promise<void>;
}

export async function startTarget(): Promise<TestTarget> {
  const realServer = process.env.MONGODB_URI;
  if (realServer) return { uri: realServer, double: undefined, close: async () => {} };
  const double = await startMongoWireServer();
  return { uri: double.uri, double, close: () => double.close() };
}

/**
 * A client of the test target for the whole test file: connected before its
 * tests, and after them its databases are dropped and everything closed.
 */
export function connectedClient(): { readonly client: MongoClient; readonly target: TestTarget } {
  const connection = {} as { client: MongoClient; target: TestTarget };
  beforeAll(async () => {
    connection.target = await startTarget();
    connection.client = newClient(connection.target.uri);
    await connection.client.connect();
  });
  afterAll(async () => {
    await dropFreshDatabases();
    await connection.client.close();
    await connection.target.close();
  });
  return connection;
}

export function newClient(uri: string): MongoClient {
  // A short selection timeout turns a broken handshake into a quick failure.
  return new MongoClient(uri, { serverSelectionTimeoutMS: 2000, directConnection: true, monitorCommands: true });
}

const freshDatabases: Db[] = [];
let databasesHandedOut = 0;

/** A database no other test uses, so tests stay independent on a shared (or real) server. */
export function freshDatabase(client: MongoClient): Db {
  databasesHandedOut += 1;
  const db = client.db(`mongo_wire_${process.pid}_${databasesHandedOut}`);
  freshDatabases.push(db);
  return db;
}

/** Drops what freshDatabase handed out, so a real server is left as it was. */
export async function dropFreshDatabases(): Promise<void> {
  for (const db of freshDatabases.splice(0)) await db.dropDatabase();
}

/** Collects the names of the commands a client sends while `run` runs. */
export async function commandsSentDuring(client: MongoClient, run: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const record = (event: CommandStartedEvent): void => {
    names.push(event.commandName);
  };
  client.on('commandStarted', record);
  try {
    await run();
  } finally {
    client.off('commandStarted', record);
  }
  return names;
}

export interface MongoTarget {
  where: string;
  uri: () => string;
  /** True for the real server when MONGODB_URI is not set. */
  skip: boolean;
}

/**
 * For tests that must hold on both: the double (started for the calling
 * file), and a real server when MONGODB_URI is set. Run the tests once per
 * target with `describe.each`; the real server's are skipped, with a warning
 * naming `subject`, only for lack of MONGODB_URI.
 */
export function doubleAndRealServer(subject: string): MongoTarget[] {
  let double: MongoWireServer | undefined;
  beforeAll(async () => {
    double = await startMongoWireServer();
  });
  afterAll(() => double?.close());
  const realServer = process.env.MONGODB_URI;
  if (!realServer) console.warn(`${subject} on a real MongoDB: skipped (set MONGODB_URI=mongodb://... to run them against it)`);
  return [
    { where: 'the wire-protocol double', uri: () => double!.uri, skip: false },
    { where: 'a real MongoDB (MONGODB_URI)', uri: () => realServer!, skip: !realServer },
  ];
}
