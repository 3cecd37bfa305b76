import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PredgateError, toErrorResponse } from '@predgate/core';
import type { CallInput, MethodRegistry, RoutedMethod } from '@predgate/core';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { StreamingConfig } from '../config.js';
import type { KeyStore, StoredKey } from '../keys/key-store.js';
import { headerKey } from '../keys/presented-key.js';
import { rateLimitHeaders, refusedBudget } from '../keys/request-budget.js';
import type { BudgetState } from '../keys/request-budget.js';
import type { RequestGate } from '../keys/request-gate.js';
import type { Metrics } from '../metrics.js';
import type { VenueDirectory } from '../venues/directory.js';
import type { Venue } from '../venues/venue.js';
import { HttpWatches } from './http-watches.js';
import { StreamHub } from './hub.js';
import { KeyWatches } from './key-watches.js';
import { StreamSession } from './session.js';
import type { SessionOwner } from './session.js';
import { symbolWatches } from './watches.js';

export interface StreamServiceOptions {
  config: StreamingConfig;
  venues: VenueDirectory;
  methods: MethodRegistry;
  /** The keys, for closing the sockets of a key revoked. */
  keys: KeyStore;
  /** Lets an upgrade in as it lets in HTTP calls: the key checked, one request taken from its budget. */
  gate: RequestGate;
  metrics: Metrics;
  logger: Logger;
}

/** The socket's path as clients spell it: pmxt clients given a base URL with a trailing slash ask for `//ws`, some add a slash after. */
const socketPath = /^\/+ws\/?$/;

/** Who is calling: the API key and the address the call came from. */
export type Caller = SessionOwner;

/**
 * Streaming: the shared upstreams, `/ws` sessions and the HTTP watch fallback.
 * Owns every socket and timer it makes; `close()` ends them all.
 */
export class StreamService {
  readonly hub: StreamHub;
  readonly http: HttpWatches;
  private readonly sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 0 });
  private readonly sessions = new Set<StreamSession>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly alive = new WeakMap<WebSocket, boolean>();
  /** The key each open socket was let in with: a revoked key's sockets are closed. */
  private readonly admitted = new Map<WebSocket, StoredKey>();
  private readonly upgradeBudgets = new WeakMap<IncomingMessage, BudgetState>();
  private readonly closeRevoked = () => {
    for (const [ws, key] of this.admitted) if (!this.options.keys.isCurrent(key)) ws.close(1008, 'API key revoked');
  };
  /** Symbols each API key watches, over every socket and HTTP watch, against `maxWatchesPerKey`. */
  readonly keyWatches: KeyWatches;

  constructor(private readonly options: StreamServiceOptions) {
    const { config, metrics, logger } = options;
    this.sockets.options.maxPayload = config.maxMessageBytes;
    this.keyWatches = new KeyWatches(config.maxWatchesPerKey);
    this.hub = new StreamHub({ dataTimeoutMs: config.dataTimeoutMs, logger, onCount: (count) => metrics.streamUpstreams.set(count) });
    this.http = new HttpWatches(this.hub, { waitMs: config.httpWaitMs, idleMs: config.httpIdleMs, maxKept: 1_000, keyWatches: this.keyWatches });
    this.heartbeat = setInterval(() => this.beat(), config.heartbeatMs);
    this.heartbeat.unref();
    options.keys.on('reload', this.closeRevoked);
    // The 101 says where the key's budget stands, as every keyed HTTP answer does.
    this.sockets.on('headers', (headers, request) => {
      const budget = this.upgradeBudgets.get(request);
      if (budget) headers.push(...rateLimitHeaders(budget).map(([name, value]) => `${name}: ${value}`));
    });
  }

  /** Open `/ws` connections. */
  get clients(): number {
    return this.sessions.size;
  }

  /** The `upgrade` event of the HTTP listener: authenticates, then hands the socket to a session. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node takes its own error listener off a socket it hands to `upgrade`: without one, a client
    // that resets the connection (before or after being refused) would raise an uncaught exception.
    // `ws` adds its own once it accepts the socket.
    socket.on('error', (error) => this.options.logger.debug({ err: error }, 'websocket upgrade socket error'));
    const url = requestUrl(request.url ?? '/');
    if (!url || !socketPath.test(url.pathname)) {
      refuse(socket, 404, new PredgateError('NOT_FOUND', `No WebSocket endpoint at ${url?.pathname ?? 'that path'}: use /ws`));
      return;
    }
    this.options.gate.admit(presentedKey(request, url), request, 'send "Authorization: Bearer <key>" or ?apiKey=<key>').then(
      ({ key, budget }) => {
        if (budget) this.upgradeBudgets.set(request, budget);
        this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws, key, { keyId: key.id, address: request.socket.remoteAddress ?? '' }));
      },
      (error: PredgateError) => refuse(socket, error.code === 'INVALID_API_KEY' ? 401 : 429, error),
    );
  }

  /** The next update of a watch over HTTP, for the caller's API key. */
  nextOverHttp(keyId: string, venue: Venue, routed: RoutedMethod, input: CallInput): Promise<unknown> {
    const watches = symbolWatches(venue, routed, input.args, this.options.methods, input.credentials);
    const stream = routed.declaration.stream!;
    const upstreamArgs = stream.symbols === 'many' ? [...(input.args[0] as string[])].sort() : input.args.slice(0, stream.upstreamArgs);
    return this.http.next(httpKey(keyId, venue.id, routed.name, upstreamArgs, input), { keyId, venue: venue.id }, watches, stream.symbols === 'many');
  }

  /** The streaming method a `stop` method (`unwatchOrderBook`) ends, if it is one. */
  stoppedBy(name: string): string | undefined {
    for (const methodName of this.options.methods.names) {
      if (this.options.methods.get(methodName)!.declaration.stream?.stop === name) return methodName;
    }
    return undefined;
  }

  /**
   * An unwatch over HTTP (`unwatchOrderBook`): ends the caller's HTTP watch
   * of `method` for the symbol, and the symbol's subscriptions on the
   * caller's sockets, since pmxt clients unwatch over HTTP what they watch on
   * `/ws`. A socket left with no subscription is closed, so the client's
   * next watch opens a new one. True when anything was running.
   */
  stopOverHttp(caller: Caller, venue: Venue, method: string, input: CallInput): boolean {
    const overHttp = this.http.stop(httpKey(caller.keyId, venue.id, method, input.args.slice(0, 1), input));
    const symbol = String(input.args[0]);
    const onSockets = this.callerSessions(caller).reduce((ended, session) => ended + this.endOnSession(session, venue.id, method, symbol), 0);
    return overHttp || onSockets > 0;
  }

  /**
   * `close` from a pmxt client: ends the caller's HTTP watches on the venue
   * and its subscriptions to the venue on sockets from the caller's address;
   * a socket left with none is closed.
   */
  closeFor(caller: Caller, venue: Venue): { watches: number; subscriptions: number; sockets: number } {
    const watches = this.http.stopAll({ keyId: caller.keyId, venue: venue.id });
    let subscriptions = 0;
    let sockets = 0;
    for (const session of this.callerSessions(caller)) {
      subscriptions += this.endOnSession(session, venue.id);
      if (!this.sessions.has(session)) sockets += 1;
    }
    return { watches, subscriptions, sockets };
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.options.keys.off('reload', this.closeRevoked);
    for (const ws of this.sockets.clients) ws.terminate();
    for (const session of this.sessions) session.close();
    this.sessions.clear();
    this.http.close();
    await this.hub.close();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
  }

  private callerSessions(caller: Caller): StreamSession[] {
    return [...this.sessions].filter((session) => session.owner.keyId === caller.keyId && session.owner.address === caller.address);
  }

  /** Ends a session's subscriptions to the venue (of one method and symbol, if given); closes the socket when none is left. */
  private endOnSession(session: StreamSession, venue: string, method?: string, symbol?: string): number {
    const ended = session.end(venue, method, symbol);
    if (session.subscriptionCount === 0 && (ended > 0 || method === undefined)) {
      session.shut(method === undefined ? 'closed by close()' : 'its last subscription was unwatched');
      this.sessions.delete(session);
      this.options.metrics.streamClients.set(this.sessions.size);
    }
    return ended;
  }

  private accept(ws: WebSocket, key: StoredKey, owner: SessionOwner): void {
    const { config, metrics, logger } = this.options;
    const session = new StreamSession(
      {
        get bufferedAmount() {
          return ws.bufferedAmount;
        },
        send: (text, done) => (ws.readyState === WebSocket.OPEN ? ws.send(text, done) : done(new Error('closed'))),
        close: (code, reason) => {
          ws.close(code, reason);
          // A client too slow to read the close frame is cut off.
          setTimeout(() => ws.terminate(), 1_000).unref();
        },
      },
      this.hub,
      this.options.venues,
      this.options.methods,
      {
        maxFrameBytes: config.maxFrameBytes,
        maxSymbols: config.maxSymbols,
        keyWatches: this.keyWatches,
        outbox: {
          highWaterBytes: config.highWaterBytes,
          maxFrames: config.maxQueuedFrames,
          slowConsumerMs: config.slowConsumerMs,
          onSlow: (reason) => {
            metrics.streamSlowConsumers.inc();
            logger.warn({ reason }, 'websocket client disconnected');
          },
        },
      },
      owner,
    );
    this.sessions.add(session);
    this.admitted.set(ws, key);
    metrics.streamClients.set(this.sessions.size);
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    ws.on('message', (data, isBinary) => {
      this.alive.set(ws, true);
      session.receive(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
    });
    ws.on('error', (error) => logger.debug({ err: error }, 'websocket client error'));
    ws.on('close', () => {
      session.close();
      this.sessions.delete(session);
      this.admitted.delete(ws);
      metrics.streamClients.set(this.sessions.size);
    });
  }

  /** Pings every socket; one that did not answer the previous ping is dropped. */
  private beat(): void {
    for (const ws of this.sockets.clients) {
      if (this.alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
    }
  }
}

/** The request target as a URL: a path is read as a path, never as a URL reference (where `//ws` would be a host). */
function requestUrl(target: string): URL | undefined {
  try {
    return new URL(target.startsWith('/') ? `http://gateway${target}` : target);
  } catch {
    return undefined;
  }
}

function presentedKey(request: IncomingMessage, url: URL): string | undefined {
  const fromHeaders = headerKey(request.headers);
  // An Authorization header that is not a Bearer key is refused, not passed over for the query's key.
  if (fromHeaders !== undefined || request.headers.authorization) return fromHeaders;
  // pmxt clients put the key in the query: `apiKey` for a hosted gateway, `token` for a local sidecar.
  return url.searchParams.get('apiKey') ?? url.searchParams.get('token') ?? undefined;
}

const reasons: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' };

/** Answers an upgrade with the error envelope (and `Retry-After` when the error has one) and closes the connection. */
function refuse(socket: Duplex, status: number, error: PredgateError): void {
  const { body } = toErrorResponse(error);
  const text = JSON.stringify(body);
  const retryAfter = body.error.detail?.retryAfter;
  const retryHeader = typeof retryAfter === 'number' ? `Retry-After: ${retryAfter}\r\n` : '';
  const budget = refusedBudget(error);
  const budgetHeaders = budget
    ? rateLimitHeaders(budget)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
    : '';
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${retryHeader}${budgetHeaders}Connection: close\r\n\r\n${text}`,
  );
}

function httpKey(keyId: string, venue: string, method: string, upstreamArgs: readonly unknown[], input: CallInput): string {
  const owner = input.credentials ? createHash('sha256').update(JSON.stringify(input.credentials)).digest('hex') : '';
  const named = [...upstreamArgs];
  while (named.length > 0 && named[named.length - 1] === undefined) named.pop();
  return JSON.stringify([keyId, venue, method, named, owner]);
}
