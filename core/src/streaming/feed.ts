import { PredgateError, isPredgateError } from '../errors.js';

/**
 * What an adapter's streaming method returns: a live venue subscription for
 * one symbol (or, when core derives it, several). A feed delivers whole
 * payloads (a full book, never a delta; a batch of trades) and reports
 * failures without ending: a retryable error while it reconnects, a final one
 * (a bad id) when the venue refuses. The gateway shares one feed per
 * (venue, method, symbol) among all the clients watching it.
 */
export interface Feed<T> {
  /** Starts the venue subscription; `listener` receives everything until `stop`. */
  start(listener: FeedListener<T>): void;
  /** Ends the venue subscription; nothing reaches the listener afterwards. */
  stop(): void | Promise<void>;
}

export interface FeedListener<T> {
  data(payload: T): void;
  /** `retryable: false` means the feed will never deliver (a bad id): the gateway ends its watches. */
  error(error: PredgateError): void;
}

/**
 * A feed made from a start and a stop function, with a guard: after `stop`,
 * or before `start`, emissions go nowhere. Adapters build their feeds with it.
 */
export function createFeed<T>(run: (emit: FeedListener<T>) => () => void | Promise<void>): Feed<T> {
  let listener: FeedListener<T> | undefined;
  let teardown: (() => void | Promise<void>) | undefined;
  return {
    start(given) {
      if (listener) throw new Error('a feed starts once');
      listener = given;
      teardown = run({
        data: (payload) => listener?.data(payload),
        error: (error) => listener?.error(error),
      });
    },
    stop() {
      listener = undefined;
      const stopping = teardown;
      teardown = undefined;
      return stopping?.();
    },
  };
}

/** Resolves with a feed's first payload (and stops it), or fails on its first error or after `timeoutMs`. */
export function firstPayload<T>(feed: Feed<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      void Promise.resolve(feed.stop()).finally(settle);
    };
    const timer = setTimeout(
      () => finish(() => reject(new PredgateError('NETWORK_ERROR', `No data within ${timeoutMs} ms`, { detail: { timeoutMs } }))),
      timeoutMs,
    );
    try {
      feed.start({ data: (payload) => finish(() => resolve(payload)), error: (error) => finish(() => reject(error)) });
    } catch (error) {
      finish(() => reject(error));
    }
  });
}

/**
 * Several symbols' feeds as one feed of a record keyed by symbol: each update
 * of one symbol delivers every symbol's latest payload seen so far.
 */
export function combineFeeds<T>(feeds: Record<string, Feed<T>>): Feed<Record<string, T>> {
  return createFeed((emit) => {
    const latest: Record<string, T> = {};
    for (const [symbol, feed] of Object.entries(feeds)) {
      feed.start({
        data(payload) {
          latest[symbol] = payload;
          emit.data({ ...latest });
        },
        error: (error) => emit.error(error),
      });
    }
    return () => Promise.all(Object.values(feeds).map((feed) => feed.stop())).then(() => undefined);
  });
}

/** Anything a venue connection threw, as a unified error (unknown failures become a retryable NETWORK_ERROR). */
export function feedError(thrown: unknown, exchange: string): PredgateError {
  if (isPredgateError(thrown)) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new PredgateError('NETWORK_ERROR', `${exchange} stream: ${message}`, { exchange, cause: thrown });
}
