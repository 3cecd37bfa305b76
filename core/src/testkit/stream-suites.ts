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

/** The stream of a venue that streams prints only (no book). */
export interface TradeStreamUnderTest {
  watchTrades(outcomeId: string): Feed<Trade[]>;
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
  /** Prints of the outcome, for a stream with trade watches. */
  trades?: ScriptedTrades;
  /** Ids that are not outcomes of the venue, as it answers them here (malformed, or refused by the scripted venue). */
  unknownOutcomes: string[];
}

/** What the venue sends (as in `ScriptedBook`) and the batches of prints a trade watcher then gets, in order. */
export interface ScriptedTrades {
  frames: unknown[];
  batches: Trade[][];
}

/** The venue's messages for one outcome of a venue that streams prints only. */
export interface TradeStreamScript {
  /** An outcome the venue streams. */
  outcomeId: string;
  /** Prints of the outcome. */
  trades: ScriptedTrades;
  /** Frames among which at least one item cannot be read; the readable rest still reaches watchers as `batches`. */
  drift: ScriptedTrades;
  /** Ids that are not outcomes of the venue, as it answers them here. */
  unknownOutcomes: string[];
}

/** The local venue and the stream each test gets fresh. */
interface StreamStage<Stream> {
  name: string;
  /** A fresh local venue speaking as much of the venue's protocol as the stream needs (acknowledgements, a handshake). */
  venue(): Promise<LocalSocketVenue>;
  /** A fresh stream dialling the local venue (its `url` plus the venue's path), with short ping and backoff times. */
  create(venue: LocalSocketVenue): Stream;
  /**
   * Whether a frame the stream sent asks the venue for an outcome (a subscribe
   * command; for a venue that sends everything to everyone, the join that starts it).
   */
  isSubscription(frame: string): boolean;
}

export interface StreamSuitesOptions<Stream extends StreamUnderTest> extends StreamStage<Stream> {
  script: StreamScript;
}

/** The trades-only mode: for a venue whose stream has prints and no book. */
export interface TradeStreamSuitesOptions<Stream extends TradeStreamUnderTest> extends StreamStage<Stream> {
  script: TradeStreamScript;
}

/**
 * The conformance every venue stream passes, from the adapter's fixtures
 * replayed on a local socket. A book stream: a watch gets the snapshot, then
 * each update, as whole books, and a later watcher the current book at once;
 * an unwatch stops that watcher and the last one closes the connection
 * (nothing kept open for nobody); a dropped connection is told as a retryable
 * error, redialled and subscribed again, with no stale book meanwhile; an
 * unknown outcome ends its watch with OUTCOME_NOT_FOUND; an unreadable item is
 * a retryable EXCHANGE_NOT_AVAILABLE and the rest is served; prints reach trade
 * watches. A trades-only stream (a script without a book) passes the same rules
 * for prints. Each test has its own venue and stream and waits on what
 * arrives, never on time.
 */
export function runStreamSuites<Stream extends StreamUnderTest>(test: TestFunction, options: StreamSuitesOptions<Stream>): void;
export function runStreamSuites<Stream extends TradeStreamUnderTest>(test: TestFunction, options: TradeStreamSuitesOptions<Stream>): void;
export function runStreamSuites(test: TestFunction, options: StreamSuitesOptions<StreamUnderTest> | TradeStreamSuitesOptions<TradeStreamUnderTest>): void {
  if ('snapshot' in options.script) bookSuites(test, options as StreamSuitesOptions<StreamUnderTest>);
  else tradeSuites(test, options as TradeStreamSuitesOptions<TradeStreamUnderTest>);
}

/** What both modes' tests are built from. */
function stageOf<Stream extends { close(): Promise<void> }>(options: StreamStage<Stream>) {
  const prefix = `${options.name} stream:`;
  const subscriptions = (venue: LocalSocketVenue) => venue.frames.filter((frame) => options.isSubscription(frame)).length;
  const send = (venue: LocalSocketVenue, frames: unknown[]) => {
    for (const frame of frames) venue.send(frame);
  };
  /** Sends the scripted frames once and waits until the watcher got the scripted batches after those it had, in order. */
  const receives = async (venue: LocalSocketVenue, prints: CollectedFeed<Trade[]>, expected: ScriptedTrades, what: string): Promise<void> => {
    const had = prints.data.length;
    send(venue, expected.frames);
    await until(() => prints.data.length >= had + expected.batches.length, `${prefix} ${expected.batches.length} batches of ${what}`);
    deepStrictEqual(prints.data.slice(had, had + expected.batches.length), expected.batches, `${prefix} ${what}`);
  };
  return {
    prefix,
    subscriptions,
    send,
    /** Runs `body` with a fresh venue and stream, both closed afterwards whatever happens. */
    async scene(body: (venue: LocalSocketVenue, stream: Stream) => Promise<void>): Promise<void> {
      const venue = await options.venue();
      const stream = options.create(venue);
      try {
        await body(venue, stream);
      } finally {
        await stream.close();
        await venue.close();
      }
    },
    /** Each id's watch ends with a final OUTCOME_NOT_FOUND and nothing delivered. */
    async refusesUnknown(outcomeIds: string[], watch: (outcomeId: string) => Feed<unknown>): Promise<void> {
      for (const outcomeId of outcomeIds) {
        const seen = collectFeed<unknown>();
        const feed = watch(outcomeId);
        feed.start(seen.listener);
        await until(() => seen.errors.length > 0, `${prefix} an error for ${outcomeId}`);
        deepStrictEqual(
          { code: seen.errors[0]!.code, retryable: seen.errors[0]!.retryable, delivered: seen.data.length },
          { code: 'OUTCOME_NOT_FOUND', retryable: false, delivered: 0 },
          `the watch of ${outcomeId}`,
        );
        await feed.stop();
      }
    },
    receives,
    /** Starts a trade watch of `outcomeId`, waits until the venue was asked for it, and checks the scripted prints reach it. */
    async watchedTrades(venue: LocalSocketVenue, stream: TradeStreamUnderTest, outcomeId: string, trades: ScriptedTrades) {
      const asked = subscriptions(venue);
      const prints = collectFeed<Trade[]>();
      const feed = stream.watchTrades(outcomeId);
      feed.start(prints.listener);
      await until(() => subscriptions(venue) > asked, `${prefix} a subscription of ${outcomeId}'s trades`);
      await receives(venue, prints, trades, 'the prints');
      return { prints, feed };
    },
    /** Waits for a retryable EXCHANGE_NOT_AVAILABLE among a watcher's errors, and checks none was final. */
    async toldDrift(errors: CollectedFeed<unknown>['errors']): Promise<void> {
      await until(
        () => errors.some((error) => error.code === 'EXCHANGE_NOT_AVAILABLE' && error.retryable),
        `${prefix} a retryable EXCHANGE_NOT_AVAILABLE for the unreadable item`,
      );
      deepStrictEqual(
        errors.filter((error) => !error.retryable),
        [],
        'no final error',
      );
    },
  };
}

function bookSuites(test: TestFunction, options: StreamSuitesOptions<StreamUnderTest>): void {
  const { script } = options;
  const stage = stageOf(options);
  const { prefix, subscriptions, send, scene, refusesUnknown, toldDrift } = stage;

  /** Starts a book watch of the outcome, waits until the venue was asked for it and sends the snapshot. */
  const watchedBook = async (venue: LocalSocketVenue, stream: StreamUnderTest) => {
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
    scene((_venue, stream) => refusesUnknown(script.unknownOutcomes, (outcomeId) => stream.watchOrderBook(outcomeId))));

  test(`${prefix} an item it cannot read is a retryable EXCHANGE_NOT_AVAILABLE, and the rest is served`, () =>
    scene(async (venue, stream) => {
      const watched = await watchedBook(venue, stream);
      send(venue, script.drift.frames);
      await holds(watched.books, script.drift.book, 'the book from the readable rest');
      await toldDrift(watched.books.errors);
      await watched.feed.stop();
    }));

  const trades = script.trades;
  if (trades) {
    test(`${prefix} prints reach trade watches`, () =>
      scene(async (venue, stream) => {
        if (!stream.watchTrades) throw new Error(`${prefix} the script has trades, the stream no watchTrades`);
        const watched = await stage.watchedTrades(venue, stream as TradeStreamUnderTest, script.outcomeId, trades);
        await watched.feed.stop();
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

/**
 * The trades-only mode: prints reach a watch, and a later watcher gets the
 * next ones without a new subscription; an unwatch stops that watcher and the
 * last one closes the connection; a dropped connection is told as a retryable
 * error, redialled and subscribed again, and prints flow again; an unknown
 * outcome ends its watch with OUTCOME_NOT_FOUND; an unreadable item is a
 * retryable EXCHANGE_NOT_AVAILABLE and the readable prints are served.
 */
function tradeSuites(test: TestFunction, options: TradeStreamSuitesOptions<TradeStreamUnderTest>): void {
  const { script } = options;
  const stage = stageOf(options);
  const { prefix, subscriptions, send, scene, receives, refusesUnknown, toldDrift } = stage;
  const watched = (venue: LocalSocketVenue, stream: TradeStreamUnderTest) => stage.watchedTrades(venue, stream, script.outcomeId, script.trades);

  /**
   * A second watch of the outcome, started and seen to receive prints. A stream may attach a
   * watcher some turns after its watch starts (once it has looked the id up), and prints are
   * not kept for newcomers as a book is: the venue repeats its prints until the watcher has one.
   */
  const secondWatcher = async (venue: LocalSocketVenue, stream: TradeStreamUnderTest) => {
    const prints = collectFeed<Trade[]>();
    const feed = stream.watchTrades(script.outcomeId);
    feed.start(prints.listener);
    await until(() => {
      if (prints.data.length === 0) send(venue, script.trades.frames);
      return prints.data.length > 0;
    }, `${prefix} prints for a second watcher`);
    return { prints, feed };
  };

  test(`${prefix} prints reach a trade watch as batches; a later watcher gets the next ones without a new subscription`, () =>
    scene(async (venue, stream) => {
      const first = await watched(venue, stream);
      const asked = subscriptions(venue);
      const later = await secondWatcher(venue, stream);
      await receives(venue, later.prints, script.trades, 'the next prints for the later watcher');
      deepStrictEqual(first.prints.data.slice(-script.trades.batches.length), script.trades.batches, `${prefix} the same prints for the first watcher`);
      deepStrictEqual(subscriptions(venue), asked, 'a later watcher of the same outcome subscribes nothing more');
      await Promise.all([first.feed.stop(), later.feed.stop()]);
    }));

  test(`${prefix} an unwatch stops that trade watcher; the last one closes the connection`, () =>
    scene(async (venue, stream) => {
      const staying = await watched(venue, stream);
      const leaving = await secondWatcher(venue, stream);
      await leaving.feed.stop();
      const left = leaving.prints.data.length;
      await receives(venue, staying.prints, script.trades, 'prints for the watcher that stayed');
      deepStrictEqual(leaving.prints.data.length, left, 'nothing reaches a watcher after its unwatch');
      await staying.feed.stop();
      await until(() => venue.sockets.size === 0, `${prefix} the connection closed with the last watcher`);
    }));

  test(`${prefix} a dropped connection is told to trade watchers as a retryable error, redialled and subscribed again`, () =>
    scene(async (venue, stream) => {
      const { prints, feed } = await watched(venue, stream);
      const asked = subscriptions(venue);
      const dialled = venue.requestUrls.length;
      venue.drop();
      await until(() => prints.errors.some((error) => error.retryable), `${prefix} a retryable error after the drop`);
      await until(() => venue.requestUrls.length > dialled && subscriptions(venue) > asked, `${prefix} redialled and subscribed again`);
      await receives(venue, prints, script.trades, 'prints after the redial');
      await feed.stop();
    }));

  test(`${prefix} an unknown outcome ends its trade watch with OUTCOME_NOT_FOUND`, () =>
    scene((_venue, stream) => refusesUnknown(script.unknownOutcomes, (outcomeId) => stream.watchTrades(outcomeId))));

  test(`${prefix} an item it cannot read is a retryable EXCHANGE_NOT_AVAILABLE, and the readable prints are served`, () =>
    scene(async (venue, stream) => {
      const { prints, feed } = await watched(venue, stream);
      await receives(venue, prints, script.drift, 'the readable prints');
      await toldDrift(prints.errors);
      await feed.stop();
    }));
}

function sameBook(book: OrderBook, expected: ExpectedBook): boolean {
  try {
    deepStrictEqual({ bids: book.bids, asks: book.asks }, expected);
    return true;
  } catch {
    return false;
  }
}
