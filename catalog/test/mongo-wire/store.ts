// The in-memory data: collections by namespace, each with its documents and indexes.
// Stored documents are never mutated: an update stores a new object in the
// old one's place. That lets a cursor keep references to documents between
// batches, and lets a document's object identity serve as its handle.
import { BSON, type Document } from 'mongodb';
import { resolve } from 'mingo/util';
import { isPlainDocument, sameBson } from './documents.js';
import { CommandError, duplicateKeyError } from './errors.js';
import { matches } from './query-engine.js';

export interface IndexSpec extends Document {
  v: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
}

const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** Collections by namespace ("database.collection"; a database name has no dot). */
export class MemoryStore {
  private readonly collections = new Map<string, Collection>();

  collection(namespace: string): Collection | undefined {
    return this.collections.get(namespace);
  }

  /** Returns the collection, creating it as writes and createIndexes do implicitly. */
  ensureCollection(namespace: string): Collection {
    let collection = this.collections.get(namespace);
    if (!collection) {
      collection = new Collection(namespace);
      this.collections.set(namespace, collection);
    }
    return collection;
  }

  collectionNames(database: string): string[] {
    return [...this.collections.keys()].filter((namespace) => databaseOf(namespace) === database).map((namespace) => namespace.slice(database.length + 1));
  }

  /** Like mongod, a database exists only while it holds a collection. */
  databaseNames(): string[] {
    return [...new Set([...this.collections.keys()].map(databaseOf))];
  }

  dropCollection(namespace: string): Collection | undefined {
    const dropped = this.collections.get(namespace);
    this.collections.delete(namespace);
    return dropped;
  }

  dropDatabase(database: string): void {
    for (const name of this.collectionNames(database)) this.collections.delete(`${database}.${name}`);
  }

  /** Moves a collection, documents and indexes, replacing the target when dropTarget is set. */
  rename(from: string, to: string, dropTarget: boolean): void {
    const source = this.collections.get(from);
    if (!source) throw new CommandError('NamespaceNotFound', `Source collection ${from} does not exist`);
    if (this.collections.has(to) && !dropTarget) throw new CommandError('NamespaceExists', 'target namespace exists');
    this.collections.delete(from);
    source.namespace = to;
    this.collections.set(to, source);
  }

  clear(): void {
    this.collections.clear();
  }
}

function databaseOf(namespace: string): string {
  return namespace.slice(0, namespace.indexOf('.'));
}

export class Collection {
  // A Map keeps insertion order and keeps a key's position when its value is
  // replaced, which is mongod's natural order for a collection that is only
  // appended to and updated in place.
  private readonly records = new Map<number, Document>();
  private readonly recordIds = new Map<Document, number>();
  private readonly indexes = new Map<string, Index>([[ID_INDEX.name, new Index(ID_INDEX)]]);
  private nextRecordId = 1;

  constructor(public namespace: string) {}

  documents(): Document[] {
    return [...this.records.values()];
  }

  /**
   * The documents that may match `filter`, which the caller still applies:
   * when the filter pins every field of a unique index to a plain value, only
   * the document holding that key; otherwise all of them. Lookups by _id or by
   * a unique key then cost no scan.
   */
  candidates(filter: Document = {}): Document[] {
    for (const index of this.indexes.values()) {
      const recordIds = index.recordsPinnedBy(filter);
      if (recordIds) return recordIds.map((recordId) => this.records.get(recordId) as Document);
    }
    return this.documents();
  }

  indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((index) => index.spec);
  }

  insert(document: Document): void {
    const recordId = this.nextRecordId++;
    this.checkUnique(document, recordId);
    this.records.set(recordId, document);
    this.recordIds.set(document, recordId);
    for (const index of this.indexes.values()) index.add(document, recordId);
  }

  /** Stores `next` in the place of `current`, a document this collection returned. */
  replace(current: Document, next: Document): void {
    const recordId = this.recordIdOf(current);
    this.checkUnique(next, recordId);
    for (const index of this.indexes.values()) {
      index.remove(current);
      index.add(next, recordId);
    }
    this.records.set(recordId, next);
    this.recordIds.delete(current);
    this.recordIds.set(next, recordId);
  }

  remove(document: Document): void {
    const recordId = this.recordIdOf(document);
    for (const index of this.indexes.values()) index.remove(document);
    this.records.delete(recordId);
    this.recordIds.delete(document);
  }

  /** Adds an index; returns false when an identical one already exists. */
  createIndex(spec: IndexSpec): boolean {
    for (const existing of this.indexes.values()) {
      const sameKey = sameBson(existing.spec.key, spec.key);
      const sameOptions = Boolean(existing.spec.unique) === Boolean(spec.unique);
      if (existing.spec.name === spec.name) {
        if (sameKey && sameOptions) return false;
        throw new CommandError(
          sameKey ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index but different ${sameKey ? 'options' : 'keys'}: ${spec.name}`,
        );
      }
      if (sameKey) {
        throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${existing.spec.name}`);
      }
    }
    const index = new Index(spec);
    for (const [recordId, document] of this.records) {
      const collision = index.collision(document, recordId);
      if (collision) throw duplicateKeyError(this.namespace, spec.name, spec.key, collision);
      index.add(document, recordId);
    }
    this.indexes.set(spec.name, index);
    return true;
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX.name) throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!this.indexes.delete(name)) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
  }

  private checkUnique(document: Document, recordId: number): void {
    for (const index of this.indexes.values()) {
      const collision = index.collision(document, recordId);
      if (collision) throw duplicateKeyError(this.namespace, index.spec.name, index.spec.key, collision);
    }
  }

  private recordIdOf(document: Document): number {
    const recordId = this.recordIds.get(document);
    if (recordId === undefined) throw new Error(`mongo-wire: document is not stored in ${this.namespace}`);
    return recordId;
  }
}

/** An index spec; unique ones also map each key to the record that owns it. */
class Index {
  private readonly owners = new Map<string, number>();
  private readonly enforced: boolean;

  constructor(readonly spec: IndexSpec) {
    this.enforced = spec.unique === true || spec.name === ID_INDEX.name;
  }

  /** The key value (field -> value) that `document` would share with another record, if any. */
  collision(document: Document, recordId: number): Document | undefined {
    for (const [encoded, keyValue] of this.keysOf(document)) {
      const owner = this.owners.get(encoded);
      if (owner !== undefined && owner !== recordId) return keyValue;
    }
    return undefined;
  }

  add(document: Document, recordId: number): void {
    for (const encoded of this.keysOf(document).keys()) this.owners.set(encoded, recordId);
  }

  remove(document: Document): void {
    for (const encoded of this.keysOf(document).keys()) this.owners.delete(encoded);
  }

  /** The records holding the key `filter` pins, or undefined when it does not pin one. */
  recordsPinnedBy(filter: Document): number[] | undefined {
    // A sparse or partial index does not hold every document, so it cannot
    // prove that no other document matches.
    if (!this.enforced || this.spec.sparse || this.spec.partialFilterExpression) return undefined;
    const tuple: Document = {};
    for (const field of Object.keys(this.spec.key)) {
      const value: unknown = filter[field];
      if (!isScalar(value)) return undefined;
      tuple[field] = value;
    }
    const owner = this.owners.get(encodeKey(tuple));
    return owner === undefined ? [] : [owner];
  }

  // Each array element is its own key (a multikey index), so one document can
  // have several; a missing field indexes as null, as in mongod.
  private keysOf(document: Document): Map<string, Document> {
    const keys = new Map<string, Document>();
    if (!this.enforced || !this.covers(document)) return keys;
    let tuples: Document[] = [{}];
    for (const field of Object.keys(this.spec.key)) {
      const value = resolve(document, field);
      const candidates = Array.isArray(value) && value.length > 0 ? value : [value ?? null];
      tuples = tuples.flatMap((tuple) => candidates.map((candidate) => ({ ...tuple, [field]: candidate })));
    }
    for (const tuple of tuples) keys.set(encodeKey(tuple), tuple);
    return keys;
  }

  private covers(document: Document): boolean {
    const { sparse, partialFilterExpression, key } = this.spec;
    if (sparse && Object.keys(key).every((field) => resolve(document, field) === undefined)) return false;
    return !partialFilterExpression || matches(partialFilterExpression, document);
  }
}

function encodeKey(tuple: Document): string {
  return Buffer.from(BSON.serialize(tuple)).toString('base64');
}

// Values an equality filter compares exactly as the index key does. Arrays,
// sub-documents, null and regular expressions match in other ways too.
function isScalar(value: unknown): boolean {
  if (value === undefined || value === null || Array.isArray(value) || value instanceof RegExp) return false;
  return !isPlainDocument(value);
}
