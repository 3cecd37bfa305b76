import WebSocket from 'ws';
import { PredgateError } from '../errors.js';

/** A time the connection was down: from its first drop to the next open, across any redials that failed meanwhile. */
export interface SocketOutage {
  from: number;
  to: number;
  /** The first drop's close code and reason. */
  reason: string;
}

export interface RedialingSocketOptions {
  venue: string;
  /** The next dial: its URL and handshake headers (signed anew where the venue signs the handshake). */
  dial(): { url: string; headers?: Record<string, string> };
  pingIntervalMs: number;
  /** What keeps the connection alive, every `pingIntervalMs` while open: a websocket ping frame unless given. */
  keepalive?(): void;
  /**
   * Redial delays: doubling from `initialMs` to `maxMs`, with jitter. With
   * `stableMs`, the delays start over only after a connection lasted that long
   * (else on each open), so a venue that accepts and then drops at once is not
   * dialled in a tight loop.
   */
  backoff: { initialMs: number; maxMs: number; stableMs?: number };
  /** The clock outages are timed by (`Date.now` unless given). */
  now?(): number;
  /** Whether a dropped connection is still needed (some watch remains): only then is it dialled again. */
  wanted(): boolean;
  onOpen?(): void;
  /** The connection is open again after a drop (called after `onOpen`): how long it was down (the archive marks it as a gap). */
  onResumed?(outage: SocketOutage): void;
  onMessage(text: string): void;
  /** The connection is gone, dropped or closed: state tied to it (what was subscribed on it) is reset here. */
  onDown(): void;
  /** The connection dropped and will be dialled again: watchers are told with this retryable error. */
  onDrop(error: PredgateError): void;
  /**
   * The handshake was refused with an HTTP status: the error returned is told
   * to watchers; a retryable one is redialled, any other stops the socket.
   */
  onRefused?(status: number): PredgateError | undefined;
  /**
   * When the backoff starts over: on `open` (the default), or only when the
   * stream calls `confirm()` (a Socket.IO namespace joined), so a venue that
   * accepts connections and then refuses them is not dialled in a tight loop.
   */
  confirmedOn?: 'open' | 'confirm';
  /** Sent before an orderly close (a Socket.IO namespace left). */
  farewell?(): string;
  /** A failure before or on the connection (Kalshi moves to its next host when one is unreachable). */
  onError?(error: Error): void;
}

/**
 * One venue websocket that comes back: dialled on `connect()`, kept alive by
 * pings, dialled again after a drop with jittered exponential backoff while
 * it is still wanted, and closed in order by `close()` (terminated if the
 * venue does not answer the close within a second). The venue streams keep
 * only their subscribe and message logic.
 */
export class RedialingSocket {
  private socket: WebSocket | undefined;
  private ping: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = false;
  private openedAt: number | undefined;
  /** Since the first drop not yet followed by an open, and why. */
  private down: { since: number; reason: string } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: RedialingSocketOptions) {
    this.now = options.now ?? Date.now;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** A connection is open or being opened. */
  get active(): boolean {
    return this.socket !== undefined;
  }

  /** Dials unless a connection is open or being opened. */
  connect(): void {
    if (this.socket) return;
    clearTimeout(this.retry);
    this.stopped = false;
    const { url, headers } = this.options.dial();
    const socket = new WebSocket(url, { ...(headers ? { headers } : {}), perMessageDeflate: false });
    this.socket = socket;
    socket.on('open', () => {
      this.openedAt = this.now();
      if (this.options.confirmedOn !== 'confirm' && this.options.backoff.stableMs === undefined) this.attempt = 0;
      const keepalive = this.options.keepalive ?? (() => socket.ping());
      this.ping = setInterval(() => socket.readyState === WebSocket.OPEN && keepalive(), this.options.pingIntervalMs);
      this.options.onOpen?.();
      const down = this.down;
      this.down = undefined;
      if (down) this.options.onResumed?.({ from: down.since, to: this.openedAt, reason: down.reason });
    });
    // A socket being closed can still deliver: only the current one is read.
    socket.on('message', (data) => this.socket === socket && this.options.onMessage(data.toString()));
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      const refusal = this.options.onRefused?.(response.statusCode ?? 0);
      if (refusal) {
        if (!refusal.retryable) this.stopped = true;
        this.options.onDrop(refusal);
      }
    });
    // Every failure ends in 'close', which redials.
    socket.on('error', (error) => this.options.onError?.(error));
    socket.on('close', (code, reason) => {
      clearInterval(this.ping);
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.options.onDown();
      if (this.stopped) return;
      const { venue, backoff } = this.options;
      const now = this.now();
      this.down ??= { since: now, reason: `connection closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})` };
      if (backoff.stableMs !== undefined && this.openedAt !== undefined && now - this.openedAt >= backoff.stableMs) this.attempt = 0;
      this.openedAt = undefined;
      this.options.onDrop(new PredgateError('NETWORK_ERROR', `${venue} websocket closed (${code}); reconnecting`, { exchange: venue, retryable: true }));
      const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** this.attempt);
      this.attempt += 1;
      this.retry = setTimeout(() => this.options.wanted() && this.connect(), base / 2 + Math.random() * (base / 2));
    });
  }

  /** The venue accepted the connection: the next drop is redialled after the shortest delay again. */
  confirm(): void {
    this.attempt = 0;
  }

  /** Sends when open; false otherwise (what was not sent is sent again after the next open). */
  send(text: string): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  /** Drops the connection now (a venue gone quiet): it is dialled again like any drop. */
  terminate(): void {
    this.socket?.terminate();
  }

  /** Closes for good (until the next `connect()`): no redial. */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const socket = this.socket;
    this.socket = undefined;
    // Closed on purpose: nothing is missing, so the next connection reports no outage.
    this.down = undefined;
    this.openedAt = undefined;
    this.options.onDown();
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      const farewell = this.options.farewell?.();
      if (farewell !== undefined && socket.readyState === WebSocket.OPEN) socket.send(farewell);
      socket.close();
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 1_000).unref();
    });
  }
}

/** The refusal of a signed handshake: 401 or 403 mean the key is wrong, and redialling would not help. */
export function refusedHandshake(venue: string, status: number): PredgateError | undefined {
  if (status !== 401 && status !== 403) return undefined;
  return new PredgateError('AUTHENTICATION_ERROR', `${venue} refused the websocket handshake (${status}): check the API key`, {
    exchange: venue,
    retryable: false,
  });
}
