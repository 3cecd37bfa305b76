import type { ChangeStream, Collection, Db } from 'mongodb';
import { checkedKeys } from './key-store.js';
import type { KeyRecords, ManagedKey } from './key-store.js';

export const keysCollectionName = 'apiKeys';

/** How often keys are read again where the server has no change streams (a standalone mongod). */
const pollMs = 500;

interface KeyDocument {
  _id: string;
  hash: string;
  label?: string;
  createdAt: string;
}

/**
 * Managed keys in the `apiKeys` collection of the catalog's database, one
 * document per key holding its digest, so every gateway on that database
 * and `predgate keys` share them. Changes arrive through a change stream on
 * a replica set, by reading the collection every half second otherwise.
 */
export class MongoKeys implements KeyRecords {
  readonly location: string;
  private readonly collection: Collection<KeyDocument>;

  /** `close` closes the client too when the keys own it (the CLI's case). */
  constructor(
    db: Db,
    private readonly closeClient: () => Promise<void> = async () => {},
  ) {
    this.collection = db.collection<KeyDocument>(keysCollectionName);
    this.location = `MongoDB collection ${db.databaseName}.${keysCollectionName}`;
  }

  async read(): Promise<ManagedKey[]> {
    const documents = await this.collection.find({}, { sort: { createdAt: 1, _id: 1 } }).toArray();
    return checkedKeys(
      documents.map(({ _id, ...key }) => ({ id: _id, ...key })),
      this.location,
    );
  }

  async add(key: ManagedKey): Promise<void> {
    const { id, ...rest } = key;
    await this.collection.insertOne({ _id: id, ...rest });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id })).deletedCount > 0;
  }

  watch(changed: () => void): () => void {
    let poll: NodeJS.Timeout | undefined;
    let stream: ChangeStream<KeyDocument> | undefined = this.collection.watch();
    stream.on('change', changed);
    // A server without change streams refuses the first one; a stream that fails for good is replaced the same way.
    stream.on('error', () => {
      void stream?.close().catch(() => {});
      stream = undefined;
      changed();
      poll ??= setInterval(changed, pollMs).unref();
    });
    return () => {
      clearInterval(poll);
      void stream?.close().catch(() => {});
      stream = undefined;
    };
  }

  async close(): Promise<void> {
    await this.closeClient();
  }
}
