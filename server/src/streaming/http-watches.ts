import { PredgateError } from '@predgate/core';
import type { PredgateError as Failure } from '@predgate/core';
import type { StreamHub } from './hub.js';
import type { KeyWatches } from './key-watches.js';
import type { SymbolWatch } from './watches.js';

export interface HttpWatchOptions {
  /** Longest a call waits for the next update before it is answered with a retryable NETWORK_ERROR. */
  waitMs: number;
  /** A watch nobody has asked for in this long ends, and with it its share of the upstream. */
  idleMs: number;
  /** Trades kept for a caller between two calls; older ones are dropped. */
  maxKept: number;
  /** The cap on symbols one API key watches, shared with its sockets. */
  keyWatches: KeyWatches;
}

/** Who holds a watch: the API key, on which venue. */
export interface WatchScope {
  keyId: string;
  venue: string;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * The HTTP fallback of pmxt clients without a socket: `POST
 * /api/{exchange}/watchOrderBook` answers with the next update. Each API key
 * and watch (venue, method, arguments) keeps one watcher on the same shared
 * upstreams `/ws` uses, between calls, so consecutive calls see consecutive
 * updates; `unwatch…` or `idleMs` without a call ends it.
 */
export class HttpWatches {
  private readonly watches = new Map<string, HttpWatch>();

  constructor(
    private readonly hub: StreamHub,
    private readonly options: HttpWatchOptions,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  /**
   * The next update of this watch for this caller; starts the watch on the
   * first call. A watch of several symbols answers once every symbol has a
   * payload, with all of them.
   */
  next(key: string, scope: WatchScope, symbols: SymbolWatch[], many: boolean): Promise<unknown> {
    let watch = this.watches.get(key);
    if (!watch) {
      this.options.keyWatches.take(scope.keyId, symbols.length);
      watch = new HttpWatch(this.hub, scope, symbols, many, this.options, () => {
        this.watches.delete(key);
        this.options.keyWatches.give(scope.keyId, symbols.length);
      });
      this.watches.set(key, watch);
    }
    return watch.next();
  }

  /** Ends every watch of the key on the venue (`close`); answers how many. */
  stopAll(scope: WatchScope): number {
    const ending = [...this.watches.values()].filter((watch) => watch.scope.keyId === scope.keyId && watch.scope.venue === scope.venue);
    for (const watch of ending) watch.end(new PredgateError('BAD_REQUEST', 'The watch was ended by close'));
    return ending.length;
  }

  /** Ends a watch; true when one was running. */
  stop(key: string): boolean {
    const watch = this.watches.get(key);
    watch?.end(new PredgateError('BAD_REQUEST', 'The watch was ended by unwatch'));
    return watch !== undefined;
  }

  close(): void {
    for (const watch of [...this.watches.values()]) watch.end(new PredgateError('EXCHANGE_NOT_AVAILABLE', 'The gateway is shutting down', { retryable: true }));
  }
}

class HttpWatch {
  private readonly stops: Array<() => void> = [];
  private readonly latest = new Map<string, unknown>();
  private kept: unknown[] = [];
  private fresh = false;
  private failure: Failure | undefined;
  private readonly waiters = new Set<Waiter>();
  private idle: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    hub: StreamHub,
    readonly scope: WatchScope,
    private readonly symbols: SymbolWatch[],
    private readonly many: boolean,
    private readonly options: HttpWatchOptions,
    private readonly onEnd: () => void,
  ) {
    for (const watch of symbols) {
      this.stops.push(
        hub.watch(watch.target, {
          data: (payload) => this.data(watch, payload),
          error: (error, final) => {
            if (final) this.end(error);
            else this.fail(error);
          },
        }),
      );
    }
    this.touch();
  }

  next(): Promise<unknown> {
    this.touch();
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.ready) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new PredgateError('NETWORK_ERROR', `No update within ${this.options.waitMs} ms: call again to keep watching`, {
              retryable: true,
              detail: { timeoutMs: this.options.waitMs },
            }),
          );
        }, this.options.waitMs),
      };
      this.waiters.add(waiter);
    });
  }

  end(error: Failure): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idle);
    this.onEnd();
    for (const stop of this.stops) stop();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }

  private data(watch: SymbolWatch, payload: unknown): void {
    const seen = watch.view(payload);
    if (watch.keep === 'all' && Array.isArray(seen)) {
      this.kept.push(...(seen as unknown[]));
      if (this.kept.length > this.options.maxKept) this.kept = this.kept.slice(-this.options.maxKept);
    }
    this.latest.set(watch.symbol, seen);
    this.fresh = true;
    if (this.waiters.size === 0 || !this.ready) return;
    const answer = this.take();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(answer);
    }
    this.waiters.clear();
  }

  private fail(error: Failure): void {
    if (this.waiters.size === 0) {
      this.failure = error;
      return;
    }
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }

  /** A new payload is in, and, for several symbols, every symbol has one. */
  private get ready(): boolean {
    return this.fresh && (!this.many || this.latest.size === this.symbols.length);
  }

  private take(): unknown {
    this.fresh = false;
    if (this.many) return Object.fromEntries(this.latest);
    const [watch] = this.symbols;
    if (watch?.keep === 'all') {
      const kept = this.kept;
      this.kept = [];
      return kept;
    }
    return this.latest.get(watch!.symbol);
  }

  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.end(new PredgateError('BAD_REQUEST', 'The watch ended after going unused')), this.options.idleMs);
    this.idle.unref();
  }
}
