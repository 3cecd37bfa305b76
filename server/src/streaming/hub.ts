import { createHash } from 'node:crypto';
import { PredgateError, adapterMethod, feedError } from '@predgate/core';
import type { Credentials, Feed, StreamOptions } from '@predgate/core';
import type { Logger } from 'pino';
import type { Venue } from '../venues/venue.js';

export interface HubOptions {
  /** A subscription silent this long gets a retryable error (again each period while it stays silent). */
  dataTimeoutMs: number;
  logger: Logger;
  /** Told when upstreams open and close, for metrics. */
  onCount?: (upstreams: number) => void;
}

/** What one watcher of an upstream hears. */
export interface UpstreamListener {
  data(payload: unknown): void;
  /** `final`: the upstream is gone (a bad id, a refused subscription); the watcher is already removed. */
  error(error: PredgateError, final: boolean): void;
}

/** One watch: the venue, the streaming method the adapter implements, and the arguments that name the venue subscription. */
export interface WatchTarget {
  venue: Venue;
  method: string;
  stream: StreamOptions;
  upstreamArgs: readonly unknown[];
  credentials?: Credentials;
}

/**
 * Upstream fan-in: one venue subscription (an adapter feed) per venue,
 * method, arguments and credentials, shared by every watcher. The feed starts
 * with the first watcher and stops with the last; a newcomer gets the latest
 * payload at once where only the latest matters (books). Each upstream has a
 * data timeout, so a bad id or a silent venue becomes an error, never a hang.
 */
export class StreamHub {
  private readonly upstreams = new Map<string, Upstream>();

  constructor(private readonly options: HubOptions) {}

  /** Venue subscriptions open now. */
  get size(): number {
    return this.upstreams.size;
  }

  /** Keys of the open upstreams, `venue method args`, for tests and status. */
  get keys(): string[] {
    return [...this.upstreams.values()].map((upstream) => upstream.label);
  }

  /** Adds a watcher; the returned function removes it (and stops the feed when it was the last). */
  watch(target: WatchTarget, listener: UpstreamListener): () => void {
    const key = upstreamKey(target);
    let upstream = this.upstreams.get(key);
    if (!upstream) {
      upstream = new Upstream(target, this.options, () => {
        this.upstreams.delete(key);
        this.options.onCount?.(this.upstreams.size);
      });
      this.upstreams.set(key, upstream);
      this.options.onCount?.(this.upstreams.size);
      upstream.open();
    }
    return upstream.add(listener);
  }

  /** Stops every upstream (server shutdown); watchers get a final error. */
  async close(): Promise<void> {
    const closing = [...this.upstreams.values()].map((upstream) =>
      upstream.end(new PredgateError('EXCHANGE_NOT_AVAILABLE', 'The gateway is shutting down', { retryable: true })),
    );
    await Promise.all(closing);
  }
}

class Upstream {
  readonly label: string;
  private readonly listeners = new Set<UpstreamListener>();
  private feed: Feed<unknown> | undefined;
  private latest: unknown;
  private hasLatest = false;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly target: WatchTarget,
    private readonly options: HubOptions,
    private readonly onEnd: () => void,
  ) {
    this.label = `${target.venue.id} ${target.method} ${JSON.stringify(target.upstreamArgs)}`;
  }

  open(): void {
    const { venue, method, upstreamArgs, credentials } = this.target;
    try {
      const call = adapterMethod(venue.adapter(credentials), method);
      if (!call) throw new PredgateError('NOT_SUPPORTED', `${venue.id} does not support ${method}`, { exchange: venue.id });
      this.feed = call(...upstreamArgs) as Feed<unknown>;
      this.feed.start({
        data: (payload) => this.data(payload),
        error: (error) => this.failure(error),
      });
      this.arm();
    } catch (error) {
      // A refusal before any data (a bad argument the adapter checks itself) ends the watch at once.
      queueMicrotask(() => void this.end(feedError(error, venue.id)));
    }
  }

  add(listener: UpstreamListener): () => void {
    if (this.ended) {
      queueMicrotask(() => listener.error(new PredgateError('EXCHANGE_NOT_AVAILABLE', 'The subscription ended', { retryable: true }), true));
      return () => undefined;
    }
    this.listeners.add(listener);
    if (this.hasLatest && this.target.stream.keep === 'latest') {
      const latest = this.latest;
      queueMicrotask(() => this.listeners.has(listener) && listener.data(latest));
    }
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      void this.end();
    };
  }

  /** Stops the feed and forgets the upstream; with an error, every watcher hears it as final. */
  async end(error?: PredgateError): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    const listeners = [...this.listeners];
    this.listeners.clear();
    this.onEnd();
    if (error) for (const listener of listeners) listener.error(error, true);
    try {
      await this.feed?.stop();
    } catch (stopError) {
      this.options.logger.warn({ err: stopError, upstream: this.label }, 'stopping a venue subscription failed');
    }
  }

  private data(payload: unknown): void {
    if (this.ended) return;
    this.arm();
    if (this.target.stream.keep === 'latest') {
      this.latest = payload;
      this.hasLatest = true;
    }
    for (const listener of this.listeners) listener.data(payload);
  }

  private failure(error: PredgateError): void {
    if (this.ended) return;
    if (!error.retryable) {
      void this.end(error);
      return;
    }
    for (const listener of this.listeners) listener.error(error, false);
  }

  /** (Re)starts the data timeout: silence for `dataTimeoutMs` tells every watcher, and keeps waiting. */
  private arm(): void {
    clearTimeout(this.timer);
    const { dataTimeoutMs } = this.options;
    this.timer = setTimeout(() => {
      const { venue, method, upstreamArgs } = this.target;
      const error = new PredgateError('NETWORK_ERROR', `No data from ${venue.id} for ${method} ${String(upstreamArgs[0])} in ${dataTimeoutMs} ms`, {
        exchange: venue.id,
        retryable: true,
        detail: { timeoutMs: dataTimeoutMs },
      });
      for (const listener of this.listeners) listener.error(error, false);
      this.arm();
    }, dataTimeoutMs);
    this.timer.unref();
  }
}

function upstreamKey({ venue, method, upstreamArgs, credentials }: WatchTarget): string {
  // Credentials never sit in a key in the clear.
  const owner = credentials && Object.keys(credentials).length > 0 ? createHash('sha256').update(JSON.stringify(credentials)).digest('hex') : '';
  return JSON.stringify([venue.id, method, upstreamArgs, owner]);
}
