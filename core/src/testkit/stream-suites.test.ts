import { expect, test } from 'vitest';
import type { OrderBook } from '../model/index.js';
import { createFeed } from '../streaming/feed.js';
import type { Feed } from '../streaming/feed.js';
import type { RedialingSocket } from '../streaming/redialing-socket.js';
import { VenueStream, jsonObjectOf } from '../streaming/venue-stream.js';
import { LocalSocketVenue } from './local-socket-venue.js';
import { runStreamSuites } from './stream-suites.js';
import type { StreamSuitesOptions } from './stream-suites.js';

/*
 * A toy venue protocol, just enough to run the suite on: `{"op":"sub","key"}`
 * subscribes (a key starting NOPE is refused with `{"refused": key}`), each
 * message `{"key", "bids": [[p, s]], "asks"}` is the key's whole book.
 */
class ToyStream extends VenueStream<{ book: OrderBook }, null> {
  protected readonly connection: RedialingSocket;

  constructor(
    url: string,
    private readonly keepsStaleBooks = false,
  ) {
    super('toy', ['book']);
    this.connection = this.plainSocket({
      dial: () => ({ url }),
      pingIntervalMs: 1_000,
      backoff: { initialMs: 5, maxMs: 10 },
      onMessage: (text) => this.receive(text),
      onDown: () => undefined,
    });
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => (outcomeId.includes(':') ? this.notAnOutcome(emit, outcomeId, '<key>') : this.watch('book', outcomeId, null, emit)));
  }

  protected override connectionDown(): void {
    // The defect the suite must catch: books from before a drop handed to watchers after it.
    if (this.keepsStaleBooks) this.subscriptions.reset();
    else super.connectionDown();
  }

  protected subscribe(_channel: 'book', keys: string[]): void {
    for (const key of keys) this.connection.send(JSON.stringify({ op: 'sub', key }));
  }

  protected unsubscribe(_channel: 'book', key: string): void {
    this.connection.send(JSON.stringify({ op: 'unsub', key }));
  }

  private receive(text: string): void {
    const message = jsonObjectOf(text);
    if (!message) return this.broadcast(this.drift('a frame that is not JSON'));
    if (typeof message.refused === 'string') return this.refused('book', [message.refused], this.refusal('no such key', [message.refused], true));
    const key = String(message.key);
    const levels = (rows: unknown) => (rows as Array<[number, number]>).map(([price, size]) => ({ price, size }));
    const book: OrderBook = { bids: levels(message.bids), asks: levels(message.asks), timestamp: 0, datetime: new Date(0).toISOString() };
    this.publish('book', key, () => book, true);
  }
}

function options(keepsStaleBooks = false): StreamSuitesOptions<ToyStream> {
  return {
    name: 'toy',
    venue: () =>
      LocalSocketVenue.start({
        onFrame(text, socket) {
          const { op, key } = JSON.parse(text) as { op: string; key: string };
          if (op === 'sub' && key.startsWith('NOPE')) socket.send(JSON.stringify({ refused: key }));
        },
      }),
    create: (venue) => new ToyStream(venue.url, keepsStaleBooks),
    isSubscription: (frame) => (JSON.parse(frame) as { op: string }).op === 'sub',
    script: {
      outcomeId: 'A',
      snapshot: { frames: [{ key: 'A', bids: [[0.4, 1]], asks: [[0.6, 2]] }], book: { bids: [{ price: 0.4, size: 1 }], asks: [{ price: 0.6, size: 2 }] } },
      update: { frames: [{ key: 'A', bids: [[0.45, 3]], asks: [] }], book: { bids: [{ price: 0.45, size: 3 }], asks: [] } },
      drift: { frames: ['not json', { key: 'A', bids: [], asks: [[0.5, 1]] }], book: { bids: [], asks: [{ price: 0.5, size: 1 }] } },
      unknownOutcomes: ['A:B', 'NOPE-1'],
    },
  };
}

type Body = () => Promise<void>;

/** The suite's tests as bodies by name, without registering them. */
function suite(keepsStaleBooks: boolean): Map<string, Body> {
  const bodies = new Map<string, Body>();
  runStreamSuites((name, body) => bodies.set(name, body), options(keepsStaleBooks));
  return bodies;
}

runStreamSuites(test, options());

test('the suite registers one test per conformance rule (trades only when the script has prints)', () => {
  expect([...suite(false).keys()].map((name) => name.replace('toy stream: ', '').split(' ').slice(0, 3).join(' '))).toEqual([
    'a watch gets',
    'an unwatch stops',
    'a dropped connection',
    'an unknown outcome',
    'an item it',
  ]);
});

test('a stream that hands a book from before a drop to a later watcher fails the reconnect conformance', async () => {
  const reconnect = [...suite(true)].find(([name]) => name.includes('dropped connection'))![1];
  await expect(reconnect()).rejects.toThrow(/fresh snapshot, first, for a watcher after the drop/);
});
