import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { isKeepalive, readMarketFrame, UnreadableMessage } from './market-messages.js';
import type { MarketFrame } from './market-messages.js';
import type { MarketRow } from './market-rows.js';

export const polymarketMarketChannelUrl = 'wss://ws-subscriptions-clob.polymarket.com/ws/market';

export interface MarketChannelOptions {
  url?: string;
  /** The venue drops connections that stay silent; it expects the text `PING` about every 10 s. */
  pingIntervalMs?: number;
  /** Reconnect delays: doubling from `initialMs` to `maxMs`, with jitter; reset after a connection lasts `stableMs`. */
  backoff?: { initialMs?: number; maxMs?: number; stableMs?: number };
  /** Asks for `best_bid_ask`, `new_market` and `market_resolved` too. */
  customFeatures?: boolean;
  now?: () => number;
}

/** A connection that was down: books of its tokens may have missed changes from `from` to `to`. */
export interface Outage {
  from: number;
  to: number;
  assetIds: string[];
  reason: string;
}

export interface MarketChannelEvents {
  /** Rows of one frame's readable messages, with the local receive time and the frame's text. */
  rows: [rows: MarketRow[], receivedAt: number, frame: string];
  /** A message (or a whole frame) we could not read: reported, never guessed around; the frame's other messages still arrive as `rows`. */
  unreadable: [error: UnreadableMessage, frame: string];
  open: [];
  /** The connection came back after a drop and every token was subscribed again. */
  resumed: [outage: Outage];
  close: [code: number, reason: string];
  error: [error: Error];
}

/**
 * One connection to Polymarket's CLOB market channel: subscribes a set of
 * outcome tokens, keeps them subscribed across reconnects (subscriptions do
 * not survive one), sends `PING` every 10 s and reports every frame as rows.
 * Shared by streaming and the archive's recorder (`@predgate/archive`).
 */
export class MarketChannel extends EventEmitter<MarketChannelEvents> {
  private readonly url: string;
  private readonly tokens = new Set<string>();
  private readonly now: () => number;
  private socket: WebSocket | undefined;
  private subscribedOnSocket = false;
  private ping: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private openedAt = 0;
  private downSince: number | undefined;
  private downReason = '';
  private closed = false;

  constructor(private readonly options: MarketChannelOptions = {}) {
    super();
    this.url = options.url ?? polymarketMarketChannelUrl;
    this.now = options.now ?? Date.now;
  }

  get assetIds(): ReadonlySet<string> {
    return this.tokens;
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** A connection is open or being dialled. */
  get active(): boolean {
    return this.socket !== undefined;
  }

  /** Dials now unless a connection is open or being dialled (a redial waiting out its backoff is brought forward). */
  connect(): void {
    this.closed = false;
    if (this.socket) return;
    clearTimeout(this.retry);
    this.dial();
  }

  subscribe(assetIds: string[]): void {
    const added = assetIds.filter((id) => !this.tokens.has(id));
    for (const id of added) this.tokens.add(id);
    if (added.length === 0 || !this.connected) return;
    if (this.subscribedOnSocket) this.send({ operation: 'subscribe', assets_ids: added });
    else this.sendInitialSubscription();
  }

  unsubscribe(assetIds: string[]): void {
    const removed = assetIds.filter((id) => this.tokens.delete(id));
    if (removed.length > 0 && this.connected && this.subscribedOnSocket) this.send({ operation: 'unsubscribe', assets_ids: removed });
  }

  /** Closes the connection for good: no reconnect, no timers left. */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2_000).unref();
    });
  }

  private dial(): void {
    const socket = new WebSocket(this.url, { perMessageDeflate: false });
    this.socket = socket;
    this.subscribedOnSocket = false;
    socket.on('open', () => {
      this.openedAt = this.now();
      this.ping = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('PING'), this.options.pingIntervalMs ?? 10_000);
      if (this.tokens.size > 0) this.sendInitialSubscription();
      this.emit('open');
      if (this.downSince !== undefined) {
        this.emit('resumed', { from: this.downSince, to: this.now(), assetIds: [...this.tokens], reason: this.downReason });
        this.downSince = undefined;
      }
    });
    socket.on('message', (data, isBinary) => {
      const receivedAt = this.now();
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      if (isKeepalive(text)) return;
      let frame: MarketFrame;
      try {
        frame = readMarketFrame(text, receivedAt);
      } catch (error) {
        if (error instanceof UnreadableMessage) this.emit('unreadable', error, text.slice(0, 2_000));
        else throw error;
        return;
      }
      for (const error of frame.unreadable) this.emit('unreadable', error, text.slice(0, 2_000));
      if (frame.rows.length > 0) this.emit('rows', frame.rows, receivedAt, text);
    });
    socket.on('error', (error) => this.emit('error', error));
    socket.on('close', (code, reason) => {
      clearInterval(this.ping);
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.emit('close', code, reason.toString());
      if (this.closed) return;
      this.downSince ??= this.now();
      this.downReason = `connection closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const { initialMs = 500, maxMs = 30_000, stableMs = 60_000 } = this.options.backoff ?? {};
    if (this.openedAt > 0 && this.now() - this.openedAt >= stableMs) this.attempt = 0;
    const base = Math.min(maxMs, initialMs * 2 ** this.attempt);
    this.attempt += 1;
    // Jitter keeps many shards from redialling in step after a venue-wide drop.
    const delay = base / 2 + Math.random() * (base / 2);
    this.retry = setTimeout(() => this.dial(), delay);
  }

  private sendInitialSubscription(): void {
    this.send({ assets_ids: [...this.tokens], type: 'market', custom_feature_enabled: this.options.customFeatures ?? true });
    this.subscribedOnSocket = true;
  }

  private send(message: object): void {
    this.socket?.send(JSON.stringify(message));
  }
}
