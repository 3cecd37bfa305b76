import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { MongoCatalogStore } from '../src/mongo/mongo-store.js';
import { entries, sampleCatalog, sweepRecord } from './fixtures.js';
import { startMongoWireServer } from './mongo-wire/index.js';
import type { MongoWireServer } from './mongo-wire/index.js';

export interface RecordedMongo {
  /** The store, once the suite's `beforeAll` has opened it. */
  store(): MongoCatalogStore;
  /** What the driver sent while `run` ran. */
  commandsOf(run: () => Promise<unknown>): Promise<CommandStartedEvent[]>;
}

/**
 * A MongoCatalogStore on the wire double, holding the sample catalog, with
 * every command the driver sends recorded: for the suites that check which
 * queries each shape issues. Registers the suite's setup and teardown.
 */
export function recordedMongoStore(database: string): RecordedMongo {
  let server: MongoWireServer;
  let store: MongoCatalogStore;
  const sent: CommandStartedEvent[] = [];

  beforeAll(async () => {
    server = await startMongoWireServer();
    const url = new URL(server.uri);
    url.pathname = `/${database}`;
    store = new MongoCatalogStore({ url: url.toString(), sweepCacheMs: 60_000, onCommand: (event) => sent.push(event) });
    await store.open();
    for (const [venue, events] of Object.entries(sampleCatalog())) {
      const writer = await store.beginSweep(venue, `${venue}-1`);
      await writer.add(entries(venue, events));
      await writer.commit(sweepRecord(venue, `${venue}-1`, events));
    }
    // The visible sweeps are cached from here on, so a page sends only its own queries.
    await store.sweeps();
  });
  afterAll(async () => {
    await store.close();
    await server.close();
  });

  return {
    store: () => store,
    async commandsOf(run) {
      sent.length = 0;
      await run();
      return [...sent];
    },
  };
}
