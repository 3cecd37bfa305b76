import { PredgateError } from '../errors.js';
import { invertBinaryBook } from '../kit/books.js';
import type { OrderBook } from '../model/index.js';
import type { FeedListener } from './feed.js';
import type { Clock } from '../runtime.js';
import { RedialingSocket } from './redialing-socket.js';
import type { RedialingSocketOptions } from './redialing-socket.js';
import { SocketIoConnection } from './socket-io-connection.js';
import type { SocketIoConnectionOptions } from './socket-io-connection.js';
import { Subscriptions } from './subscriptions.js';

/** What every venue stream is configured with (the adapter's `stream` block plus its identity and clock). */
export interface VenueStreamOptions {
  /** The venue's websocket URL (a Socket.IO root for Socket.IO venues). */
  url: string;
  venue: string;
  clock: Clock;
  /** How often the connection is kept alive from our side. */
  pingIntervalMs: number;
  /** Redial delays: doubling from `initialMs` to `maxMs`, with jitter. */
  backoff: { initialMs: number; maxMs: number };
}

/** What a venue stream needs of its one connection, plain websocket or Socket.IO. */
export interface StreamConnection {
  /** Commands can go out now (the socket is open; for Socket.IO, the namespace is joined too). */
  readonly isOpen: boolean;
  /** A connection is open or being opened. */
  readonly active: boolean;
  /** Dials unless a connection is open or being opened. */
  connect(): void;
  /** Closes for good (until the next `connect()`): no redial. */
  close(): Promise<void>;
}

/** One watcher of a key: what it asked to see (a side, an option) and where its payloads go. */
export interface StreamWatcher<View> {
  view: View;
  emit: FeedListener<never>;
}

/** A payload as each watcher sees it (a YES book mirrored for a NO watcher, prints priced on its side); undefined when it has nothing for that watcher. */
export type Viewer<T, View> = (view: View) => T | undefined;

interface Entry<View> {
  watchers: Set<StreamWatcher<View>>;
  /** The last payload kept for the key (a whole book), handed to a newcomer at once; gone after a drop. */
  latest: Viewer<unknown, View> | undefined;
}

/**
 * The venue-independent half of a venue's market stream: watchers per channel
 * and key (a key is wanted while someone watches it, unsubscribed when the last
 * leaves, and the connection closed when nothing is wanted), the last book of a
 * key kept for a newcomer, what was subscribed forgotten when the connection
 * drops (the connection's `wanted()` and `onOpen` resubscribe every key), and
 * the errors a stream tells its watchers: a drop, a frame it cannot read, a
 * refused subscription. A venue stream adds its connection, its subscribe and
 * unsubscribe commands and the reading of its messages.
 */
export abstract class VenueStream<Channels extends Record<string, unknown>, View> {
  protected readonly subscriptions: Subscriptions<keyof Channels & string>;
  private readonly entries = new Map<keyof Channels & string, Map<string, Entry<View>>>();
  protected abstract readonly connection: StreamConnection;

  constructor(
    protected readonly venue: string,
    channels: ReadonlyArray<keyof Channels & string>,
  ) {
    for (const channel of channels) this.entries.set(channel, new Map());
    this.subscriptions = new Subscriptions({
      channels,
      canSend: () => this.connection.isOpen,
      subscribe: (channel, keys) => this.subscribe(channel, keys),
      unsubscribe: (channel, key) => this.unsubscribe(channel, key),
      onIdle: () => void this.connection.close(),
    });
  }

  /**
   * A plain websocket wired to this stream: dialled again while a key is
   * wanted, what is wanted flushed on open, the connection's state forgotten
   * when it goes (then `onDown`), and a drop told to every watcher.
   */
  protected plainSocket(
    options: Pick<RedialingSocketOptions, 'dial' | 'pingIntervalMs' | 'backoff' | 'onMessage' | 'keepalive' | 'onRefused' | 'onError' | 'onDown'>,
  ): RedialingSocket {
    return new RedialingSocket({
      ...options,
      venue: this.venue,
      wanted: () => !this.subscriptions.idle,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onDown: () => {
        this.connectionDown();
        options.onDown();
      },
      onDrop: (error) => this.broadcast(error),
    });
  }

  /**
   * A Socket.IO connection to `namespace` at the stream's `url`, with its ping
   * and backoff, wired to this stream in the same way: flushed when the
   * namespace is joined, its problems told to every watcher, each event to `onEvent`.
   */
  protected socketIo(options: VenueStreamOptions, namespace: string, onEvent: SocketIoConnectionOptions['onEvent']): SocketIoConnection {
    return new SocketIoConnection({
      url: options.url,
      namespace,
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      onEvent,
      venue: this.venue,
      wanted: () => !this.subscriptions.idle,
      onJoin: () => this.subscriptions.scheduleFlush(),
      onDown: () => this.connectionDown(),
      onDrop: (error) => this.broadcast(error),
      onProblem: (error) => this.broadcast(error),
    });
  }

  /** Asks the venue for these keys of `channel`, none of them sent yet on this connection. */
  protected abstract subscribe(channel: keyof Channels & string, keys: string[]): void;

  /** Tells the venue to stop sending `key` of `channel`. */
  protected abstract unsubscribe(channel: keyof Channels & string, key: string): void;

  /** Ends every watch and closes the connection. */
  async close(): Promise<void> {
    for (const entries of this.entries.values()) entries.clear();
    this.subscriptions.clear();
    await this.connection.close();
  }

  /**
   * Adds a watcher of `key` on `channel`: the key is wanted (the connection
   * dialled for the first), a kept payload reaches the watcher at once, and the
   * function returned takes the watcher away again (the key unwanted with its
   * last watcher). A watcher from before `close()` leaves later watchers alone.
   */
  protected watch<C extends keyof Channels & string>(channel: C, key: string, view: View, emit: FeedListener<Channels[C]>): () => void {
    const entries = this.entriesOf(channel);
    let entry = entries.get(key);
    if (!entry) {
      entry = { watchers: new Set(), latest: undefined };
      entries.set(key, entry);
    }
    const watcher: StreamWatcher<View> = { view, emit: emit as FeedListener<never> };
    entry.watchers.add(watcher);
    const payload = entry.latest?.(view) as Channels[C] | undefined;
    if (payload !== undefined) queueMicrotask(() => emit.data(payload));
    if (this.subscriptions.want(channel, key)) this.connection.connect();
    // A key wanted already may have been refused: the flush asks for it again.
    else this.subscriptions.scheduleFlush();
    const owner = entry;
    return () => {
      owner.watchers.delete(watcher);
      if (owner.watchers.size > 0 || entries.get(key) !== owner) return;
      // Unwanted first: an unsubscribe command may still read the key's entry.
      this.subscriptions.unwant(channel, key);
      entries.delete(key);
    };
  }

  /**
   * Refuses a watch of something that cannot be an outcome of this venue: OUTCOME_NOT_FOUND, final, told
   * on the next microtask (after `start` returns); nothing is subscribed. Returns the watch's empty teardown.
   */
  protected notAnOutcome(emit: FeedListener<never>, outcomeId: string, expected: string): () => void {
    const shown = outcomeId.slice(0, 100);
    const error = new PredgateError('OUTCOME_NOT_FOUND', `${this.venue}: ${shown} is not an outcome id (${expected})`, {
      exchange: this.venue,
      retryable: false,
      detail: { outcomeId: shown },
    });
    queueMicrotask(() => emit.error(error));
    return () => undefined;
  }

  /** Whether anyone watches `key` on `channel`. */
  protected watched(channel: keyof Channels & string, key: string): boolean {
    return this.entriesOf(channel).has(key);
  }

  /** The keys watched on `channel`, in the order first watched. */
  protected watchedKeys(channel: keyof Channels & string): string[] {
    return [...this.entriesOf(channel).keys()];
  }

  /** The views the watchers of `key` asked for. */
  protected viewsOf(channel: keyof Channels & string, key: string): View[] {
    return [...(this.entriesOf(channel).get(key)?.watchers ?? [])].map((watcher) => watcher.view);
  }

  /**
   * Delivers a payload of `key` to each of its watchers as `viewer` shows it to
   * that watcher's view; `keep` keeps it for watchers who come later (a whole book).
   */
  protected publish<C extends keyof Channels & string>(channel: C, key: string, viewer: Viewer<Channels[C], View>, keep = false): void {
    const entry = this.entriesOf(channel).get(key);
    if (!entry) return;
    if (keep) entry.latest = viewer;
    for (const watcher of entry.watchers) {
      const payload = viewer(watcher.view);
      if (payload !== undefined) watcher.emit.data(payload as never);
    }
  }

  /** Drops the payload kept for `key` (a book that can no longer be trusted): newcomers wait for the next one. */
  protected forgetLatest(channel: keyof Channels & string, key: string): void {
    const entry = this.entriesOf(channel).get(key);
    if (entry) entry.latest = undefined;
  }

  /** Tells the watchers of `key` on `channel`. */
  protected fail(channel: keyof Channels & string, key: string, error: PredgateError): void {
    for (const watcher of this.entriesOf(channel).get(key)?.watchers ?? []) watcher.emit.error(error);
  }

  /** Tells every watcher of every key. */
  protected broadcast(error: PredgateError): void {
    for (const entries of this.entries.values()) for (const entry of entries.values()) for (const watcher of entry.watchers) watcher.emit.error(error);
  }

  /**
   * The venue refused a subscription of `keys`: they are asked for again on the
   * next flush or connection, and their watchers are told (a final error, such
   * as an unknown outcome, ends their watches). A batch refused for naming
   * something unknown tells no one yet: each key is asked for alone, so only
   * the unknown one is refused and the others are served.
   */
  protected refused(channel: keyof Channels & string, keys: readonly string[], error: PredgateError): void {
    if (keys.length > 1 && error.code === 'OUTCOME_NOT_FOUND') {
      for (const key of keys) this.subscriptions.isolate(channel, key);
      this.subscriptions.scheduleFlush();
      return;
    }
    for (const key of keys) {
      this.subscriptions.forget(channel, key);
      this.fail(channel, key, error);
    }
  }

  /**
   * The connection is gone: nothing is subscribed on the next one until it is
   * flushed again, and a kept book may have changed meanwhile, so watchers wait
   * for the fresh one. A venue stream resets its own connection state after this.
   */
  protected connectionDown(): void {
    this.subscriptions.reset();
    for (const entries of this.entries.values()) for (const entry of entries.values()) entry.latest = undefined;
  }

  /** The venue's frame as a JSON object; undefined, and told to every watcher as drift, when it is not one. */
  protected messageOf(text: string): Record<string, unknown> | undefined {
    const message = jsonObjectOf(text);
    if (!message) this.broadcast(this.drift('a frame that is not JSON (or not an object)'));
    return message;
  }

  /** A message the venue sent that is not read: retryable, as the stream goes on. */
  protected drift(what: string): PredgateError {
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${this.venue} websocket sent ${what}: not read`, { exchange: this.venue, retryable: true });
  }

  /**
   * The error for a subscription the venue refused with `text`: OUTCOME_NOT_FOUND
   * (final) when it does not know what was named, else a retryable refusal.
   */
  protected refusal(text: string, named: readonly string[], notFound: boolean, detail?: Record<string, unknown>): PredgateError {
    const shown = text.slice(0, 200);
    return notFound
      ? new PredgateError('OUTCOME_NOT_FOUND', `${this.venue}: ${shown} (${named.map((key) => key.slice(0, 100)).join(', ')})`, {
          exchange: this.venue,
          retryable: false,
          detail: { ...detail, keys: named.slice(0, 20) },
        })
      : new PredgateError('EXCHANGE_NOT_AVAILABLE', `${this.venue} refused the subscription: ${shown}`, {
          exchange: this.venue,
          retryable: true,
          ...(detail ? { detail } : {}),
        });
  }

  /** An error the venue sent about no subscription in particular: every watcher is told, and the stream goes on. */
  protected venueError(text: string, detail?: Record<string, unknown>): PredgateError {
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${this.venue} websocket: ${text.slice(0, 200)}`, {
      exchange: this.venue,
      retryable: true,
      ...(detail ? { detail } : {}),
    });
  }

  private entriesOf(channel: keyof Channels & string): Map<string, Entry<View>> {
    return this.entries.get(channel)!;
  }
}

/** A binary market's book for one side: the YES book as it is, or mirrored for NO. */
export function bookForSide(yes: OrderBook, side: 'yes' | 'no'): OrderBook {
  return side === 'yes' ? yes : invertBinaryBook(yes);
}

/** The venue's JSON message as an object, or undefined when the frame is not a JSON object. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
