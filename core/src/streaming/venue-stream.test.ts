import { describe, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import type { OrderBook } from '../model/index.js';
import { normalizeOrderBook } from '../behaviour/order-book.js';
import { collectFeed } from '../testkit/streams.js';
import { createFeed } from './feed.js';
import type { Feed } from './feed.js';
import { VenueStream, bookForSide, jsonObjectOf } from './venue-stream.js';
import type { StreamConnection } from './venue-stream.js';

/** A connection that only records what happens to it. */
class RecordedConnection implements StreamConnection {
  isOpen = false;
  active = false;
  dials = 0;
  closes = 0;
  connect(): void {
    if (this.active) return;
    this.active = true;
    this.dials += 1;
  }
  close(): Promise<void> {
    this.active = false;
    this.isOpen = false;
    this.closes += 1;
    return Promise.resolve();
  }
}

type Side = 'yes' | 'no';

/** The smallest venue stream: commands are recorded, and the test says what the venue sends. */
class TestStream extends VenueStream<{ book: OrderBook; trade: string[] }, Side> {
  readonly connection = new RecordedConnection();
  readonly commands: string[] = [];

  constructor() {
    super('test-venue', ['book', 'trade']);
  }

  watchOrderBook(key: string, side: Side = 'yes'): Feed<OrderBook> {
    return createFeed((emit) => this.watch('book', key, side, emit));
  }

  watchTrades(key: string, side: Side = 'yes'): Feed<string[]> {
    return createFeed((emit) => this.watch('trade', key, side, emit));
  }

  /** The connection opened: what is wanted goes out. */
  open(): void {
    this.connection.isOpen = true;
    this.subscriptions.scheduleFlush();
  }

  /** The connection dropped. */
  down(): void {
    this.connection.isOpen = false;
    this.connectionDown();
    this.broadcast(new PredgateError('NETWORK_ERROR', 'dropped', { retryable: true }));
  }

  book(key: string, yes: OrderBook): void {
    this.publish('book', key, (side) => bookForSide(yes, side), true);
  }

  prints(key: string, ids: string[]): void {
    this.publish('trade', key, (side) => (side === 'yes' ? ids : undefined));
  }

  refuse(key: string, notFound: boolean): void {
    this.refuseBatch([key], notFound);
  }

  /** The venue refuses one command that named all of `keys`. */
  refuseBatch(keys: string[], notFound: boolean): void {
    this.refused('book', keys, this.refusal('no such thing', keys, notFound));
  }

  protected subscribe(channel: string, keys: string[]): void {
    this.commands.push(`+${channel}:${keys.join(',')}`);
  }

  protected unsubscribe(channel: string, key: string): void {
    this.commands.push(`-${channel}:${key}`);
  }
}

const yesBook = normalizeOrderBook({ bids: [{ price: 0.4, size: 10 }], asks: [{ price: 0.6, size: 5 }], timestamp: 1_790_000_000_000 });
const settled = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('VenueStream', () => {
  test('watches of a key share one subscription, sent together once open; the last to leave unsubscribes and the connection closes when nothing is wanted', async () => {
    const stream = new TestStream();
    const one = stream.watchOrderBook('A');
    const two = stream.watchOrderBook('A', 'no');
    const three = stream.watchTrades('A');
    one.start(collectFeed<OrderBook>().listener);
    two.start(collectFeed<OrderBook>().listener);
    three.start(collectFeed<string[]>().listener);
    expect(stream.connection.dials).toBe(1);
    await settled();
    expect(stream.commands).toEqual([]);
    stream.open();
    await settled();
    expect(stream.commands).toEqual(['+book:A', '+trade:A']);
    await one.stop();
    expect(stream.commands).toHaveLength(2);
    await two.stop();
    expect(stream.commands.at(-1)).toBe('-book:A');
    expect(stream.connection.closes).toBe(0);
    await three.stop();
    expect(stream.commands.at(-1)).toBe('-trade:A');
    expect(stream.connection.closes).toBe(1);
  });

  test('a book reaches each watcher on its side, a newcomer gets the kept book at once, and a drop forgets it and resubscribes', async () => {
    const stream = new TestStream();
    const yes = collectFeed<OrderBook>();
    const no = collectFeed<OrderBook>();
    stream.watchOrderBook('A').start(yes.listener);
    stream.watchOrderBook('A', 'no').start(no.listener);
    stream.open();
    await settled();
    stream.book('A', yesBook);
    expect(yes.data).toEqual([yesBook]);
    expect(no.data[0]!.bids[0]).toEqual({ price: 0.4, size: 5 });
    const late = collectFeed<OrderBook>();
    stream.watchOrderBook('A', 'no').start(late.listener);
    await settled();
    expect(late.data).toEqual(no.data);

    stream.down();
    expect(yes.errors.map((error) => error.code)).toEqual(['NETWORK_ERROR']);
    const afterDrop = collectFeed<OrderBook>();
    stream.watchOrderBook('A').start(afterDrop.listener);
    stream.open();
    await settled();
    expect(afterDrop.data).toEqual([]);
    expect(stream.commands.filter((command) => command === '+book:A')).toHaveLength(2);
  });

  test('a payload with nothing for a watcher skips it; a key nobody watches is not delivered', async () => {
    const stream = new TestStream();
    const yes = collectFeed<string[]>();
    const no = collectFeed<string[]>();
    stream.watchTrades('A').start(yes.listener);
    stream.watchTrades('A', 'no').start(no.listener);
    stream.prints('A', ['t1']);
    stream.prints('B', ['t2']);
    expect(yes.data).toEqual([['t1']]);
    expect(no.data).toEqual([]);
  });

  test('a refusal tells the key’s watchers: OUTCOME_NOT_FOUND and final for an unknown key, else retryable and asked for again', async () => {
    const stream = new TestStream();
    const missing = collectFeed<OrderBook>();
    const busy = collectFeed<OrderBook>();
    const missingFeed = stream.watchOrderBook('NOPE');
    missingFeed.start(missing.listener);
    stream.watchOrderBook('BUSY').start(busy.listener);
    stream.open();
    await settled();
    stream.refuse('NOPE', true);
    stream.refuse('BUSY', false);
    expect(missing.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false, exchange: 'test-venue' });
    expect(missing.errors[0]!.message).toContain('NOPE');
    expect(busy.errors[0]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    // The gateway ends a watch refused for good; another watch of a key refused for now sends its subscription again.
    await missingFeed.stop();
    stream.watchOrderBook('BUSY').start(collectFeed<OrderBook>().listener);
    await settled();
    expect(stream.commands.at(-1)).toBe('+book:BUSY');
  });

  test('a batch refused for naming something unknown costs only the unknown key: each is asked for alone, and only its refusal ends a watch', async () => {
    const stream = new TestStream();
    const good = collectFeed<OrderBook>();
    const missing = collectFeed<OrderBook>();
    stream.watchOrderBook('GOOD').start(good.listener);
    stream.watchOrderBook('NOPE').start(missing.listener);
    stream.open();
    await settled();
    expect(stream.commands).toEqual(['+book:GOOD,NOPE']);
    stream.refuseBatch(['GOOD', 'NOPE'], true);
    await settled();
    expect(stream.commands).toEqual(['+book:GOOD,NOPE', '+book:GOOD', '+book:NOPE']);
    expect(good.errors).toEqual([]);
    expect(missing.errors).toEqual([]);
    stream.refuse('NOPE', true);
    expect(missing.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
    expect(good.errors).toEqual([]);
    // A batch refused for any other reason tells every watcher at once, retryable.
    stream.refuseBatch(['GOOD'], false);
    expect(good.errors[0]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
  });

  test('close ends every watch; a watcher from before it stopping later leaves the watchers after it alone', async () => {
    const stream = new TestStream();
    const before = stream.watchOrderBook('A');
    before.start(collectFeed<OrderBook>().listener);
    await stream.close();
    expect(stream.connection.closes).toBe(1);
    const after = collectFeed<OrderBook>();
    stream.watchOrderBook('A').start(after.listener);
    await before.stop();
    stream.open();
    await settled();
    stream.book('A', yesBook);
    expect(after.data).toHaveLength(1);
  });
});

test('jsonObjectOf reads a JSON object and nothing else', () => {
  expect(jsonObjectOf('{"a":1}')).toEqual({ a: 1 });
  expect(jsonObjectOf('[1]')).toBeUndefined();
  expect(jsonObjectOf('null')).toBeUndefined();
  expect(jsonObjectOf('{"a":')).toBeUndefined();
});
