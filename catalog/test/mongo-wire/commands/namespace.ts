// Commands on databases, collections and indexes rather than on documents.
import type { Document } from 'mongodb';
import { documentArray, optionalDocument, targetNamespace, type CommandHandler } from '../command.js';
import { isPlainDocument, sameBson } from '../documents.js';
import { CommandError } from '../errors.js';
import { select } from '../query-engine.js';
import type { IndexSpec } from '../store.js';

// create options that change what a collection is. Accepting them silently
// would let a store pass here and fail on a real server.
const UNSUPPORTED_CREATE_OPTIONS = ['capped', 'timeseries', 'viewOn', 'validator', 'clusteredIndex', 'encryptedFields'];

export const namespaceCommands: Record<string, CommandHandler> = {
  create(command, context) {
    const namespace = targetNamespace(command, context);
    const unsupported = UNSUPPORTED_CREATE_OPTIONS.find((option) => command[option] !== undefined);
    if (unsupported) throw new CommandError('NotImplemented', `create option '${unsupported}' is not supported by the mongo-wire test server`);
    if (context.store.collection(namespace)) throw new CommandError('NamespaceExists', `Collection ${namespace} already exists.`);
    context.store.ensureCollection(namespace);
    return {};
  },

  drop(command, context) {
    // Since MongoDB 7.0 dropping a missing collection succeeds.
    const dropped = context.store.dropCollection(targetNamespace(command, context));
    return dropped ? { ns: dropped.namespace, nIndexesWas: dropped.indexSpecs().length } : {};
  },

  dropDatabase(_command, { store, database }) {
    store.dropDatabase(database);
    return { dropped: database };
  },

  listCollections(command, { store, database, cursors }) {
    const infos = store
      .collectionNames(database)
      .map((name) =>
        command.nameOnly === true
          ? { name, type: 'collection' }
          : { name, type: 'collection', options: {}, info: { readOnly: false }, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } },
      );
    const matched = select(infos, { filter: optionalDocument(command, 'filter') });
    return { cursor: cursors.first(`${database}.$cmd.listCollections`, matched) };
  },

  listDatabases(command, { store }) {
    const databases = store.databaseNames().map((name) => ({ name, sizeOnDisk: 0, empty: false }));
    const matched = select(databases, { filter: optionalDocument(command, 'filter') });
    return command.nameOnly === true ? { databases: matched.map(({ name }) => ({ name })) } : { databases: matched, totalSize: 0, totalSizeMb: 0 };
  },

  // Sent to admin as { renameCollection: 'db.from', to: 'db.to', dropTarget }.
  renameCollection(command, { store, database }) {
    if (database !== 'admin') throw new CommandError('Unauthorized', 'renameCollection may only be run against the admin database.');
    const from = validNamespace(command.renameCollection);
    const to = validNamespace(command.to);
    if (from === to) throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
    store.rename(from, to, command.dropTarget === true);
    return {};
  },

  createIndexes(command, context) {
    const namespace = targetNamespace(command, context);
    const existed = context.store.collection(namespace) !== undefined;
    const collection = context.store.ensureCollection(namespace);
    const before = collection.indexSpecs().length;
    const created = documentArray(command, 'indexes').filter((requested) => collection.createIndex(indexSpecOf(requested)));
    return {
      numIndexesBefore: before,
      numIndexesAfter: collection.indexSpecs().length,
      ...(created.length === 0 ? { note: 'all indexes already exist' } : {}),
      createdCollectionAutomatically: !existed,
    };
  },

  listIndexes(command, context) {
    const namespace = targetNamespace(command, context);
    const collection = context.store.collection(namespace);
    if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${namespace}`);
    const batchSize: number | undefined = optionalDocument(command, 'cursor')?.batchSize;
    return { cursor: context.cursors.first(namespace, collection.indexSpecs(), { batchSize }) };
  },

  dropIndexes(command, context) {
    const namespace = targetNamespace(command, context);
    const collection = context.store.collection(namespace);
    if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${namespace}`);
    const specs = collection.indexSpecs();
    for (const name of indexNamesToDrop(specs, command.index)) collection.dropIndex(name);
    return { nIndexesWas: specs.length };
  },
};

// dropIndexes' `index` is a name, '*' (all but _id_), an array of names, or a key pattern.
function indexNamesToDrop(specs: IndexSpec[], requested: unknown): string[] {
  if (requested === '*') return specs.map((spec) => spec.name).filter((name) => name !== '_id_');
  if (typeof requested === 'string') return [requested];
  if (Array.isArray(requested)) return requested.map(String);
  const spec = isPlainDocument(requested) ? specs.find((candidate) => sameBson(candidate.key, requested)) : undefined;
  if (!spec) throw new CommandError('IndexNotFound', `can't find index with key: ${JSON.stringify(requested)}`);
  return [spec.name];
}

function validNamespace(value: unknown): string {
  const dot = typeof value === 'string' ? value.indexOf('.') : -1;
  if (typeof value !== 'string' || dot <= 0 || dot === value.length - 1) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified '${String(value)}'`);
  }
  return value;
}

function indexSpecOf(requested: Document): IndexSpec {
  if (!isPlainDocument(requested.key) || Object.keys(requested.key).length === 0) {
    throw new CommandError('BadValue', "index specification must have a non-empty 'key' document");
  }
  if (typeof requested.name !== 'string') throw new CommandError('BadValue', "index specification must have a 'name'");
  return { v: 2, ...requested, key: requested.key, name: requested.name };
}
