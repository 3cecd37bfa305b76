import { deepStrictEqual } from 'node:assert/strict';
import type { OrderBook, OrderLevel, Trade } from '../model/index.js';
import type { Feed } from '../streaming/feed.js';
import type { TestFunction } from './conformance.js';
import type { LocalSocketVenue } from './local-socket-venue.js';
import { until } from './local-socket-venue.js';
import { collectFeed } from './streams.js';
import type { CollectedFeed } from './streams.js';

/** The stream an adapter builds for its market-data watches. */
export interface StreamUnderTest {
  watchOrderBook(outcomeId: string): Feed<OrderBook>;
  watchTrades?(outcomeId: string): Feed<Trade[]>;
  close(): Promise<void>;
}

/** The two sides of a book as watchers must then hold them: numbers, best first. */
export interface ExpectedBook {
  bids: OrderLevel[];
  asks: OrderLevel[];
}

/** What the venue sends (a string as it is, anything else as JSON), one frame each, and the book watchers then hold. */
export interface ScriptedBook {
  frames: unknown[];
  book: ExpectedBook;
}

/** The venue's messages for one outcome, taken from the adapter's fixtures. */
export interface StreamScript {
  /** An outcome the venue streams. */
  outcomeId: string;
  /** The outcome's whole book, sent once the venue was asked for it. */
  snapshot: ScriptedBook;
  /** A change of that book (a delta, or a whole book where the venue sends only whole books). */
  update: ScriptedBook;
  /**
   * Frames after the snapshot among which at least one item cannot be read
   * (a frame that is not JSON, a level that is no number, an unknown message);
   * the readable rest still changes the book to `book`.
   */
  drift: ScriptedBook;
  /** Prints of the outcome, for a stream with trade watches: the frames, then the batches watchers get. */
  trades?: { frames: unknown[]; batches: Trade[][] };
  /** Ids that are not outcomes of the venue, as it answers them here (malformed, or refused by the scripted venue). */
  unknownOutcomes: string[];
}

export interface StreamSuitesOptions<Stream extends StreamUnderTest> {
  name: string;
  /** A fresh local venue speaking as much of the venue's protocol as the stream needs (acknowledgements, a handshake). */
  venue(): Promise<LocalSocketVenue>;
  /** A fresh stream dialling the local venue (its `url` plus the venue's path), with short ping and backoff times. */
  create(venue: LocalSocketVenue): Stream;
  /** Whether a frame the stream sent asks the venue for an outcome (a subscribe command). */
  isSubscription(frame: string): boolean;
  script: StreamScript;
}

/**
 * The conformance every venue stream passes, from the adapter's fixtures
 * replayed on a local socket: a watch gets the snapshot, then each update, as
 * whole books, and a later watcher the current book at once; an unwatch stops
 * that watcher and the last one closes the connection (nothing kept open for
 * nobody); a dropped connection is told as a retryable error, redialled and
 * subscribed again, with no stale book meanwhile; an unknown outcome ends its
 * watch with OUTCOME_NOT_FOUND; an unreadable item is a retryable
 * EXCHANGE_NOT_AVAILABLE and the rest is served; prints reach trade watches.
 * Each test has its own venue and stream and waits on what arrives, never on time.
 */
export function runStreamSuites<Stream extends StreamUnderTest>(test: TestFunction, options: StreamSuitesOptions<Stream>): void {
  const { name, script } = options;
  const prefix = `${name} stream:`;
  const subscriptions = (venue: LocalSocketVenue) => venue.frames.filter((frame) => options.isSubscription(frame)).length;
  const send = (venue: LocalSocketVenue, frames: unknown[]) => {
    for (const frame of frames) venue.send(frame);
  };

  /** Runs `body` with a fresh venue and stream, both closed afterwards whatever happens. */
  const scene = async (body: (venue: LocalSocketVenue, stream: Stream) => Promise<void>) => {
    const venue = await options.venue();
    const stream = options.create(venue);
    try {
      await body(venue, stream);
    } finally {
      await stream.close();
      await venue.close();
    }
  };

  /** Starts a book watch of the outcome, waits until the venue was asked for it and sends the snapshot. */
  const watchedBook = async (venue: LocalSocketVenue, stream: Stream) => {
    const asked = subscriptions(venue);
    const books = collectFeed<OrderBook>();
    const feed = stream.watchOrderBook(script.outcomeId);
    feed.start(books.listener);
    await until(() => subscriptions(venue) > asked, `${prefix} a subscription of ${script.outcomeId}`);
    send(venue, script.snapshot.frames);
    await holds(books, script.snapshot.book, 'the snapshot', true);
    return { books, feed };
  };

  test(`${prefix} a watch gets the snapshot, then each update, as whole books; a later watcher gets the current book at once`, () =>
    scene(async (venue, stream) => {
      const first = await watchedBook(venue, stream);
      send(venue, script.update.frames);
      await holds(first.books, script.update.book, 'the update');

      const asked = subscriptions(venue);
      const later = collectFeed<OrderBook>();
      const feed = stream.watchOrderBook(script.outcomeId);
      feed.start(later.listener);
      await holds(later, script.update.book, 'the current book for a later watcher', true);
      deepStrictEqual(subscriptions(venue), asked, 'a later watcher of the same outcome subscribes nothing more');
      await Promise.all([first.feed.stop(), feed.stop()]);
    }));

  test(`${prefix} an unwatch stops that watcher; the last one closes the connection`, () =>
    scene(async (venue, stream) => {
      const staying = await watchedBook(venue, stream);
      const leaving = collectFeed<OrderBook>();
      const feed = stream.watchOrderBook(script.outcomeId);
      feed.start(leaving.listener);
      await holds(leaving, script.snapshot.book, 'the current book for a second watcher', true);
      await feed.stop();
      send(venue, script.update.frames);
      await holds(staying.books, script.update.book, 'the update for the watcher that stayed');
      deepStrictEqual(leaving.data.length, 1, 'nothing reaches a watcher after its unwatch');
      await staying.feed.stop();
      await until(() => venue.sockets.size === 0, `${prefix} the connection closed with the last watcher`);
    }));

  test(`${prefix} a dropped connection is told as a retryable error, redialled and subscribed again; no stale book meanwhile`, () =>
    scene(async (venue, stream) => {
      const watched = await watchedBook(venue, stream);
      send(venue, script.update.frames);
      await holds(watched.books, script.update.book, 'the update');
      const asked = subscriptions(venue);
      const dialled = venue.requestUrls.length;
      venue.drop();
      await until(() => watched.books.errors.some((error) => error.retryable), `${prefix} a retryable error after the drop`);
      await until(() => venue.requestUrls.length > dialled && subscriptions(venue) > asked, `${prefix} redialled and subscribed again`);
      // A watcher arriving now must not get the book from before the drop: the next one it sees is the fresh snapshot.
      const late = collectFeed<OrderBook>();
      const feed = stream.watchOrderBook(script.outcomeId);
      feed.start(late.listener);
      send(venue, script.snapshot.frames);
      await holds(late, script.snapshot.book, 'the fresh snapshot, first, for a watcher after the drop', true);
      await holds(watched.books, script.snapshot.book, 'the fresh snapshot after the drop');
      await Promise.all([watched.feed.stop(), feed.stop()]);
    }));

  test(`${prefix} an unknown outcome ends its watch with OUTCOME_NOT_FOUND`, () =>
    scene(async (_venue, stream) => {
      for (const outcomeId of script.unknownOutcomes) {
        const seen = collectFeed<OrderBook>();
        const feed = stream.watchOrderBook(outcomeId);
        feed.start(seen.listener);
        await until(() => seen.errors.length > 0, `${prefix} an error for ${outcomeId}`);
        deepStrictEqual(
          { code: seen.errors[0]!.code, retryable: seen.errors[0]!.retryable, books: seen.data.length },
          { code: 'OUTCOME_NOT_FOUND', retryable: false, books: 0 },
          `the watch of ${outcomeId}`,
        );
        await feed.stop();
      }
    }));

  test(`${prefix} an item it cannot read is a retryable EXCHANGE_NOT_AVAILABLE, and the rest is served`, () =>
    scene(async (venue, stream) => {
      const watched = await watchedBook(venue, stream);
      send(venue, script.drift.frames);
      await until(
        () => watched.books.errors.some((error) => error.code === 'EXCHANGE_NOT_AVAILABLE' && error.retryable),
        `${prefix} a retryable EXCHANGE_NOT_AVAILABLE for the unreadable item`,
      );
      await holds(watched.books, script.drift.book, 'the book from the readable rest');
      deepStrictEqual(
        watched.books.errors.filter((error) => !error.retryable),
        [],
        'no final error',
      );
      await watched.feed.stop();
    }));

  const trades = script.trades;
  if (trades) {
    test(`${prefix} prints reach trade watches`, () =>
      scene(async (venue, stream) => {
        if (!stream.watchTrades) throw new Error(`${prefix} the script has trades, the stream no watchTrades`);
        const asked = subscriptions(venue);
        const prints = collectFeed<Trade[]>();
        const feed = stream.watchTrades(script.outcomeId);
        feed.start(prints.listener);
        await until(() => subscriptions(venue) > asked, `${prefix} a subscription of ${script.outcomeId}'s trades`);
        send(venue, trades.frames);
        await until(() => prints.data.length >= trades.batches.length, `${prefix} ${trades.batches.length} batches of prints`);
        deepStrictEqual(prints.data, trades.batches);
        await feed.stop();
      }));
  }

  /**
   * Waits until the watcher's latest book holds `expected`; with `first`, checks
   * that its first book is that one (nothing before it, a stale book included).
   */
  async function holds(books: CollectedFeed<OrderBook>, expected: ExpectedBook, what: string, first = false): Promise<void> {
    try {
      await until(() => books.data.length > 0 && (first || sameBook(books.data.at(-1)!, expected)), `${prefix} ${what}`);
    } catch (error) {
      const last = books.data.at(-1);
      throw new Error(`${(error as Error).message}; the last book held ${JSON.stringify(last && { bids: last.bids, asks: last.asks })}`, { cause: error });
    }
    const book = first ? books.data[0]! : books.data.at(-1)!;
    deepStrictEqual({ bids: book.bids, asks: book.asks }, expected, `${prefix} ${what}`);
  }
}

function sameBook(book: OrderBook, expected: ExpectedBook): boolean {
  try {
    deepStrictEqual({ bids: book.bids, asks: book.asks }, expected);
    return true;
  } catch {
    return false;
  }
}
