import { expect, test } from 'vitest';
import type { OrderBook, Trade } from '../model/index.js';
import { createFeed } from '../streaming/feed.js';
import type { Feed } from '../streaming/feed.js';
import type { RedialingSocket } from '../streaming/redialing-socket.js';
import { VenueStream, jsonObjectOf } from '../streaming/venue-stream.js';
import { LocalSocketVenue } from './local-socket-venue.js';
import { runStreamSuites } from './stream-suites.js';
import type { StreamSuitesOptions, TradeStreamSuitesOptions } from './stream-suites.js';

/*
 * A toy venue protocol, just enough to run the suite on: `{"op":"sub","channel","key"}`
 * subscribes (a key starting NOPE is refused with `{"refused": key, channel}`), each
 * message `{"key", "bids": [[p, s]], "asks"}` is the key's whole book, and
 * `{"key", "prints": [[id, price, amount]]}` a batch of its trades.
 */
type Channel = 'book' | 'trades';

/** A defect the suite must catch. */
type Defect = 'keeps stale books' | 'subscribes for each watcher';

class ToyStream extends VenueStream<{ book: OrderBook; trades: Trade[] }, null> {
  protected readonly connection: RedialingSocket;

  constructor(
    url: string,
    private readonly defect?: Defect,
  ) {
    super('toy', ['book', 'trades']);
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

  /** Trade watchers attach a turn after their watch starts, as a stream that first looks the id up does. */
  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      if (outcomeId.includes(':')) return this.notAnOutcome(emit, outcomeId, '<key>');
      let detach: (() => void) | undefined;
      let stopped = false;
      setImmediate(() => {
        if (stopped) return;
        detach = this.watch('trades', outcomeId, null, emit);
        // The defect: the venue asked again for what it already sends.
        if (this.defect === 'subscribes for each watcher' && this.connection.isOpen) this.subscribe('trades', [outcomeId]);
      });
      return () => {
        stopped = true;
        detach?.();
      };
    });
  }

  protected override connectionDown(): void {
    // The defect: books from before a drop handed to watchers after it.
    if (this.defect === 'keeps stale books') this.subscriptions.reset();
    else super.connectionDown();
  }

  protected subscribe(channel: Channel, keys: string[]): void {
    for (const key of keys) this.connection.send(JSON.stringify({ op: 'sub', channel, key }));
  }

  protected unsubscribe(channel: Channel, key: string): void {
    this.connection.send(JSON.stringify({ op: 'unsub', channel, key }));
  }

  private receive(text: string): void {
    const message = jsonObjectOf(text);
    if (!message) return this.broadcast(this.drift('a frame that is not JSON'));
    if (typeof message.refused === 'string')
      return this.refused(message.channel as Channel, [message.refused], this.refusal('no such key', [message.refused], true));
    const key = String(message.key);
    if (Array.isArray(message.prints)) return this.prints(key, message.prints);
    const levels = (rows: unknown) => (rows as Array<[number, number]>).map(([price, size]) => ({ price, size }));
    const book: OrderBook = { bids: levels(message.bids), asks: levels(message.asks), timestamp: 0, datetime: new Date(0).toISOString() };
    this.publish('book', key, () => book, true);
  }

  private prints(key: string, rows: unknown[]): void {
    const readable = rows.filter((row): row is [string, number, number] => Array.isArray(row) && typeof row[1] === 'number');
    if (readable.length < rows.length) this.fail('trades', key, this.drift('a print that is not [id, price, amount]'));
    const trades = readable.map(([id, price, amount]): Trade => ({ id, timestamp: 0, price, amount, side: 'buy', outcomeId: key }));
    if (trades.length > 0) this.publish('trades', key, () => trades);
  }
}

/** Answers a subscription of a key starting NOPE with a refusal. */
const toyVenue = () =>
  LocalSocketVenue.start({
    onFrame(text, socket) {
      const { op, channel, key } = JSON.parse(text) as { op: string; channel: Channel; key: string };
      if (op === 'sub' && key.startsWith('NOPE')) socket.send(JSON.stringify({ refused: key, channel }));
    },
  });

const print = (id: string, price: number): Trade => ({ id, timestamp: 0, price, amount: 1, side: 'buy', outcomeId: 'A' });

/** The toy venue and a toy stream on it, with `defect` if given. */
const toyStage = (name: string, defect?: Defect) => ({
  name,
  venue: toyVenue,
  create: (venue: LocalSocketVenue) => new ToyStream(venue.url, defect),
  isSubscription: (frame: string) => (JSON.parse(frame) as { op: string }).op === 'sub',
});

function options(defect?: Defect): StreamSuitesOptions<ToyStream> {
  return {
    ...toyStage('toy', defect),
    script: {
      outcomeId: 'A',
      snapshot: { frames: [{ key: 'A', bids: [[0.4, 1]], asks: [[0.6, 2]] }], book: { bids: [{ price: 0.4, size: 1 }], asks: [{ price: 0.6, size: 2 }] } },
      update: { frames: [{ key: 'A', bids: [[0.45, 3]], asks: [] }], book: { bids: [{ price: 0.45, size: 3 }], asks: [] } },
      drift: { frames: ['not json', { key: 'A', bids: [], asks: [[0.5, 1]] }], book: { bids: [], asks: [{ price: 0.5, size: 1 }] } },
      trades: { frames: [{ key: 'A', prints: [['t1', 0.4, 1]] }], batches: [[print('t1', 0.4)]] },
      unknownOutcomes: ['A:B', 'NOPE-1'],
    },
  };
}

function tradeOptions(defect?: Defect): TradeStreamSuitesOptions<ToyStream> {
  return {
    ...toyStage('toy prints', defect),
    script: {
      outcomeId: 'A',
      trades: {
        frames: [
          { key: 'A', prints: [['t1', 0.4, 1]] },
          { key: 'A', prints: [['t2', 0.45, 1]] },
        ],
        batches: [[print('t1', 0.4)], [print('t2', 0.45)]],
      },
      drift: {
        frames: [
          'not json',
          {
            key: 'A',
            prints: [
              ['t3', 'high', 1],
              ['t4', 0.5, 1],
            ],
          },
        ],
        batches: [[print('t4', 0.5)]],
      },
      unknownOutcomes: ['A:B', 'NOPE-1'],
    },
  };
}

type Body = () => Promise<void>;

/** The suite's tests as bodies by name, without registering them. */
function suite(register: (test: (name: string, body: Body) => void) => void): Map<string, Body> {
  const bodies = new Map<string, Body>();
  register((name, body) => bodies.set(name, body));
  return bodies;
}

/** The first words of each rule's test name. */
const rules = (bodies: Map<string, Body>) =>
  [...bodies.keys()].map((name) =>
    name
      .replace(/^toy (prints )?stream: /, '')
      .split(' ')
      .slice(0, 3)
      .join(' '),
  );

runStreamSuites(test, options());
runStreamSuites(test, tradeOptions());

test('the suite registers one test per conformance rule (trades only when the script has prints), and as many in the trades-only mode', () => {
  const withoutPrints = options();
  delete withoutPrints.script.trades;
  expect(rules(suite((register) => runStreamSuites(register, withoutPrints)))).toEqual([
    'a watch gets',
    'an unwatch stops',
    'a dropped connection',
    'an unknown outcome',
    'an item it',
  ]);
  expect(rules(suite((register) => runStreamSuites(register, options())))).toContain('prints reach trade');
  expect(rules(suite((register) => runStreamSuites(register, tradeOptions())))).toEqual([
    'prints reach a',
    'an unwatch stops',
    'a dropped connection',
    'an unknown outcome',
    'an item it',
  ]);
});

test('a stream that hands a book from before a drop to a later watcher fails the reconnect conformance', async () => {
  const reconnect = [...suite((register) => runStreamSuites(register, options('keeps stale books')))].find(([name]) => name.includes('dropped connection'))![1];
  await expect(reconnect()).rejects.toThrow(/fresh snapshot, first, for a watcher after the drop/);
});

test('a trades-only stream that subscribes again for a later watcher fails the trades-only conformance', async () => {
  const later = [...suite((register) => runStreamSuites(register, tradeOptions('subscribes for each watcher')))].find(([name]) =>
    name.includes('later watcher'),
  )![1];
  await expect(later()).rejects.toThrow(/a later watcher of the same outcome subscribes nothing more/);
});
