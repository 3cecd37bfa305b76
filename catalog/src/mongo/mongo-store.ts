import { PredgateError } from '@predgate/core';
import { MongoClient, MongoNetworkError, MongoServerError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import type { Collection, CommandStartedEvent, Db } from 'mongodb';
import type { CatalogEntry } from '../document.js';
import type { CatalogStore, EventQuery, MarketHit, MarketQuery, Page, SweepRecord, SweepWriter } from '../store.js';
import {
  entryFromDocument,
  eventDocument,
  eventFilter,
  eventIndexes,
  eventSort,
  marketDocuments,
  marketFilter,
  marketIndexes,
  marketProjection,
  marketSort,
  retiredEventIndexes,
} from './documents.js';
import type { EventDocument, MarketDocument } from './documents.js';

export interface MongoStoreOptions {
  /** `mongodb://...`; the database is the URI's path, `predgate` when it has none. */
  url: string;
  /** How long a visible-sweeps lookup is reused, so gateways sharing a database see each other's sweeps. */
  sweepCacheMs?: number;
  serverSelectionTimeoutMS?: number;
  /** Sees every command the driver sends (operators log slow shapes with it; tests check which queries are issued). */
  onCommand?: (event: CommandStartedEvent) => void;
}

interface SweepDocument extends SweepRecord {
  _id: string;
}

/**
 * The catalog on MongoDB, through the official driver. A sweep's events, and
 * its markets in a collection of their own, are written as new documents
 * tagged with the sweep's id and become visible at once when the venue's
 * record in `sweeps` points at that id; older sweeps' documents are deleted
 * one commit later. Readers only ever see committed sweeps.
 */
export class MongoCatalogStore implements CatalogStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly sweepCacheMs: number;
  private visible: { sweeps: SweepRecord[]; readAt: number } | undefined;

  constructor(options: MongoStoreOptions) {
    this.client = new MongoClient(options.url, {
      appName: 'predgate',
      // An operator's `serverSelectionTimeoutMS` in the URL is theirs: client options would override it.
      ...(/[?&]serverSelectionTimeoutMS=/i.test(options.url) ? {} : { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5_000 }),
      monitorCommands: options.onCommand !== undefined,
    });
    if (options.onCommand) this.client.on('commandStarted', options.onCommand);
    this.db = this.client.db();
    this.sweepCacheMs = options.sweepCacheMs ?? 1_000;
  }

  /** The catalog's database: gateways sharing the catalog keep what they share here too (API keys, rate limits, sweep leases). */
  get database(): Db {
    return this.db;
  }

  private get eventsCollection(): Collection<EventDocument> {
    return this.db.collection<EventDocument>('events');
  }

  private get marketsCollection(): Collection<MarketDocument> {
    return this.db.collection<MarketDocument>('markets');
  }

  private get sweepsCollection(): Collection<SweepDocument> {
    return this.db.collection<SweepDocument>('sweeps');
  }

  async open(): Promise<void> {
    await unavailableOnOutage(async () => {
      await this.client.connect();
      for (const name of retiredEventIndexes) await dropIndexIfPresent(this.eventsCollection, name);
      await this.eventsCollection.createIndexes(eventIndexes.map((index) => ({ ...index, key: { ...index.key } })));
      await this.marketsCollection.createIndexes(marketIndexes.map((index) => ({ ...index, key: { ...index.key } })));
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async beginSweep(venue: string, sweepId: string): Promise<SweepWriter> {
    const events = this.eventsCollection;
    const markets = this.marketsCollection;
    // Events written by earlier batches of this sweep: one seen again may now have fewer markets.
    const written = new Set<string>();
    const addMarkets = async (entries: readonly CatalogEntry[]) => {
      const latest = [...new Map(entries.map((entry) => [entry.id, entry])).values()];
      const repeated = latest.filter((entry) => written.has(entry.id)).map((entry) => entry.id);
      for (const entry of latest) written.add(entry.id);
      if (repeated.length > 0) await markets.deleteMany({ eventUuid: { $in: repeated }, sweep: sweepId });
      const documents = latest.flatMap((entry) => marketDocuments(entry, sweepId));
      if (documents.length === 0) return;
      await markets.bulkWrite(
        documents.map((document) => ({ replaceOne: { filter: { _id: document._id }, replacement: document, upsert: true } })),
        { ordered: false },
      );
    };
    const commitSweep = async (record: SweepRecord) => {
      const previous = await this.sweepsCollection.findOne({ _id: venue });
      await this.sweepsCollection.replaceOne({ _id: venue }, record, { upsert: true });
      this.visible = undefined;
      // The sweep before stays one more round: another gateway may read it until its cache of the sweeps expires.
      const superseded = { venue, sweep: { $nin: previous ? [sweepId, previous.sweepId] : [sweepId] } };
      await Promise.all([events.deleteMany(superseded), markets.deleteMany(superseded)]);
    };
    return {
      add: (entries) =>
        unavailableOnOutage(async () => {
          if (entries.length === 0) return;
          await Promise.all([
            events.bulkWrite(
              entries.map((entry) => {
                const document = eventDocument(entry, sweepId);
                return { replaceOne: { filter: { _id: document._id }, replacement: document, upsert: true } };
              }),
              { ordered: false },
            ),
            addMarkets(entries),
          ]);
        }),
      commit: (record) => unavailableOnOutage(() => commitSweep(record)),
      abort: () => unavailableOnOutage(async () => void (await Promise.all([events.deleteMany({ sweep: sweepId }), markets.deleteMany({ sweep: sweepId })]))),
    };
  }

  async sweeps(): Promise<SweepRecord[]> {
    return unavailableOnOutage(async () => {
      if (!this.visible || Date.now() - this.visible.readAt > this.sweepCacheMs) {
        const documents = await this.sweepsCollection.find({}).toArray();
        this.visible = { sweeps: documents.map(({ _id: _venue, ...record }) => record), readAt: Date.now() };
      }
      return this.visible.sweeps;
    });
  }

  async events(query: EventQuery): Promise<Page<CatalogEntry>> {
    const visible = await this.visibleSweepIds();
    return unavailableOnOutage(async () => {
      const filter = eventFilter(query, visible);
      const [documents, total] = await Promise.all([
        this.eventsCollection.find(filter).sort(eventSort(query.order)).skip(query.offset).limit(query.limit).toArray(),
        query.withTotal ? this.eventsCollection.countDocuments(filter) : undefined,
      ]);
      return { items: documents.map(entryFromDocument), ...(total === undefined ? {} : { total }) };
    });
  }

  async markets(query: MarketQuery): Promise<Page<MarketHit>> {
    const visible = await this.visibleSweepIds();
    return unavailableOnOutage(async () => {
      const filter = marketFilter(query, visible);
      const [documents, total] = await Promise.all([
        this.marketsCollection
          .find(filter, { projection: marketProjection })
          .sort({ ...marketSort })
          .skip(query.offset)
          .limit(query.limit)
          .toArray(),
        query.withTotal ? this.marketsCollection.countDocuments(filter) : undefined,
      ]);
      const items = documents.map((document): MarketHit => ({
        venue: document.venue,
        eventId: document.eventUuid,
        venueEventId: document.venueEventId,
        market: document.market,
      }));
      return { items, ...(total === undefined ? {} : { total }) };
    });
  }

  async eventById(id: string): Promise<CatalogEntry | undefined> {
    const visible = await this.visibleSweepIds();
    return unavailableOnOutage(async () => {
      const document = await this.eventsCollection.findOne({ id, sweep: { $in: visible } });
      return document ? entryFromDocument(document) : undefined;
    });
  }

  private async visibleSweepIds(): Promise<string[]> {
    return (await this.sweeps()).map((sweep) => sweep.sweepId);
  }
}

/** Drops an index by name; a database that never had it (or has no such collection yet) is already as wanted. */
async function dropIndexIfPresent(collection: Collection<EventDocument>, name: string): Promise<void> {
  try {
    await collection.dropIndex(name);
  } catch (error) {
    const absent = error instanceof MongoServerError && (error.codeName === 'IndexNotFound' || error.codeName === 'NamespaceNotFound');
    if (!absent) throw error;
  }
}

/** A database that cannot be reached is CATALOG_UNAVAILABLE (retryable), never an internal error. */
async function unavailableOnOutage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const outage =
      error instanceof MongoServerSelectionError ||
      error instanceof MongoNetworkError ||
      error instanceof MongoNotConnectedError ||
      error instanceof MongoTopologyClosedError;
    if (!outage) throw error;
    throw new PredgateError('CATALOG_UNAVAILABLE', 'The catalog database cannot be reached', { cause: error });
  }
}
