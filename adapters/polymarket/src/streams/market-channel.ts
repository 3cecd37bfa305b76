import { EventEmitter } from 'node:events';
import { RedialingSocket } from '@predgate/core';
import type { PredgateError, SocketOutage } from '@predgate/core';
import { isKeepalive, readMarketFrame, UnreadableMessage } from './market-messages.js';
import type { MarketFrame } from './market-messages.js';
import type { MarketRow } from './market-rows.js';

export const polymarketMarketChannelUrl = 'wss://ws-subscriptions-clob.polymarket.com/ws/market';

/** The venue id the connection's errors name (`context.ts`'s, not imported: this module stands alone for the archive, outside the adapter's context). */
const venue = 'polymarket';

export interface MarketChannelOptions {
  url?: string;
  /** The venue drops connections that stay silent; it expects the text `PING` about every 10 s. */
  pingIntervalMs?: number;
  /** Reconnect delays: doubling from `initialMs` to `maxMs`, with jitter; started over once a connection lasted `stableMs`. */
  backoff?: { initialMs?: number; maxMs?: number; stableMs?: number };
  /** Asks for `best_bid_ask`, `new_market` and `market_resolved` too. */
  customFeatures?: boolean;
  now?: () => number;
}

/** A connection that was down: books of its tokens may have missed changes from `from` to `to`. */
export interface Outage extends SocketOutage {
  assetIds: string[];
}

export interface MarketChannelEvents {
  /** Rows of one frame's readable messages, with the local receive time and the frame's text. */
  rows: [rows: MarketRow[], receivedAt: number, frame: string];
  /** A message (or a whole frame) we could not read: reported, never guessed around; the frame's other messages still arrive as `rows`. */
  unreadable: [error: UnreadableMessage, frame: string];
  open: [];
  /** The connection came back after a drop (and failed redials) and every token was subscribed again. */
  resumed: [outage: Outage];
  /** The connection is gone, dropped or closed: nothing is subscribed until it opens again. */
  down: [];
  /** The connection dropped and is being dialled again, told as a retryable error. */
  drop: [error: PredgateError];
  error: [error: Error];
}

/**
 * One connection to Polymarket's CLOB market channel: subscribes a set of
 * outcome tokens, keeps them subscribed across reconnects (subscriptions do
 * not survive one), sends `PING` every 10 s and reports every frame as rows.
 * The connection is core's `RedialingSocket`: redialled with backoff until
 * `close()`, each outage reported when it ends. Shared by streaming and the
 * archive's recorder (`@predgate/archive`), which marks each outage as a gap.
 */
export class MarketChannel extends EventEmitter<MarketChannelEvents> {
  private readonly tokens = new Set<string>();
  private readonly now: () => number;
  private readonly socket: RedialingSocket;
  private subscribedOnSocket = false;

  constructor(private readonly options: MarketChannelOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    const { initialMs = 500, maxMs = 30_000, stableMs = 60_000 } = options.backoff ?? {};
    this.socket = new RedialingSocket({
      venue,
      dial: () => ({ url: options.url ?? polymarketMarketChannelUrl }),
      pingIntervalMs: options.pingIntervalMs ?? 10_000,
      keepalive: () => this.socket.send('PING'),
      backoff: { initialMs, maxMs, stableMs },
      now: this.now,
      // Redialled until closed: the recorder always wants its tokens, the stream closes the channel with its last watch.
      wanted: () => true,
      onOpen: () => {
        if (this.tokens.size > 0) this.sendInitialSubscription();
        this.emit('open');
      },
      onResumed: (outage) => this.emit('resumed', { ...outage, assetIds: [...this.tokens] }),
      onMessage: (text) => this.read(text),
      onDown: () => {
        this.subscribedOnSocket = false;
        this.emit('down');
      },
      onDrop: (error) => this.emit('drop', error),
      onError: (error) => this.emit('error', error),
    });
  }

  get assetIds(): ReadonlySet<string> {
    return this.tokens;
  }

  get connected(): boolean {
    return this.socket.isOpen;
  }

  /** A connection is open or being dialled. */
  get active(): boolean {
    return this.socket.active;
  }

  /** Dials now unless a connection is open or being dialled (a redial waiting out its backoff is brought forward). */
  connect(): void {
    this.socket.connect();
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
    return this.socket.close();
  }

  private read(text: string): void {
    const receivedAt = this.now();
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
  }

  private sendInitialSubscription(): void {
    this.send({ assets_ids: [...this.tokens], type: 'market', custom_feature_enabled: this.options.customFeatures ?? true });
    this.subscribedOnSocket = true;
  }

  private send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }
}
