import { PredgateError, toErrorResponse } from '@predgate/core';
import type { Credentials, MethodRegistry } from '@predgate/core';
import Joi from 'joi';
import { maxJsonDepth, nestsDeeperThan, tooDeep } from '../json-depth.js';
import { routedMethod } from '../plugins/call-input.js';
import type { VenueDirectory } from '../venues/directory.js';
import { scrubCredentials } from '../venues/scrub.js';
import type { StreamHub } from './hub.js';
import type { KeyWatches } from './key-watches.js';
import { Outbox } from './outbox.js';
import type { FrameSink, OutboxOptions } from './outbox.js';
import { symbolWatches } from './watches.js';

/** Whose socket it is: the API key it was opened with and the caller's address, for `close` and HTTP unwatches. */
export interface SessionOwner {
  keyId: string;
  address: string;
}

export interface SessionOptions {
  /** Text frames longer than this get an error frame and are otherwise ignored. */
  maxFrameBytes: number;
  /** Subscriptions (symbols) one socket may hold. */
  maxSymbols: number;
  outbox: OutboxOptions;
  /** The cap on symbols one API key watches, shared with its other sockets and HTTP watches. */
  keyWatches: KeyWatches;
}

/** A client frame, as pmxt clients send it. */
interface ClientFrame {
  id: string;
  action: 'subscribe' | 'unsubscribe' | 'ping';
  exchange?: string;
  method?: string;
  args?: unknown[];
  credentials?: unknown;
}

const frameSchema = Joi.object<ClientFrame>({
  id: Joi.alternatives(
    Joi.string().min(1).max(128),
    Joi.number()
      .integer()
      .custom((value: number) => String(value)),
  ).required(),
  action: Joi.string().required(),
  exchange: Joi.string().max(64),
  method: Joi.string().max(64),
  args: Joi.array().max(16),
  credentials: Joi.any(),
}).unknown(true);

const actions = ['subscribe', 'unsubscribe', 'ping'];

/** JSON text of payload views, kept while the view object lives: a book fanned out to 1,000 clients is serialised once. */
const serialised = new WeakMap<object, string>();

function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = serialised.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialised.set(value, text);
  }
  return text;
}

/** One subscription of the connection, by its client id. */
interface Subscription {
  venue: string;
  /** The method each symbol is watched with (`watchOrderBook` for a `watchOrderBooks` subscription). */
  symbolMethod: string;
  /** What names it, for replacing a repeated subscription: venue, method and arguments. */
  signature: string;
  stops: Map<string, () => void>;
  /** `subscribed` was sent. */
  acknowledged: boolean;
  /** Data frames go out as they come; before, they wait in `held`. */
  delivering: boolean;
  held: Map<string, { key: string | undefined; texts: string[] }>;
  turn: NodeJS.Immediate | undefined;
}

/**
 * One `/ws` connection: reads client frames, keeps the connection's
 * subscriptions by id, writes `subscribed`, `data` (one frame per symbol) and
 * `error` frames. A frame it cannot use gets an error frame and the socket
 * stays usable; closing the socket ends every subscription it held.
 *
 * `subscribed` is sent on the gateway's next turn, unless the subscription
 * was refused by then (an unknown outcome the venue or a shared upstream
 * refuses at once): then an error frame is all the client gets, and nothing
 * stays subscribed. Data frames follow `subscribed`; those of several symbols
 * (`watchOrderBooks`) start once every symbol has a payload, so the client's
 * first answer has every book. A subscription repeating the venue, method and
 * arguments of one still live on the socket replaces it (pmxt clients
 * subscribe anew at every `watchOrderBooks` call).
 */
export class StreamSession {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly outbox: Outbox;
  private symbols = 0;
  private closed = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly hub: StreamHub,
    private readonly venues: VenueDirectory,
    private readonly methods: MethodRegistry,
    private readonly options: SessionOptions,
    readonly owner: SessionOwner,
  ) {
    // A client dropped for falling behind lets go of its subscriptions at once, not when its socket finally closes.
    this.outbox = new Outbox(sink, {
      ...options.outbox,
      onSlow: (reason) => {
        options.outbox.onSlow?.(reason);
        this.close();
      },
    });
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** One text frame from the client. */
  receive(text: string): void {
    if (this.closed) return;
    if (Buffer.byteLength(text) > this.options.maxFrameBytes) {
      this.sendError(
        null,
        new PredgateError('BAD_REQUEST', `Frame of more than ${this.options.maxFrameBytes} bytes ignored`, {
          detail: { maxFrameBytes: this.options.maxFrameBytes },
        }),
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.sendError(null, new PredgateError('BAD_REQUEST', 'Frame is not JSON: send {"id", "action", "exchange", "method", "args"}'));
      return;
    }
    const id = typeof (parsed as { id?: unknown } | null)?.id === 'string' ? (parsed as { id: string }).id : null;
    if (nestsDeeperThan(parsed, maxJsonDepth)) {
      this.sendError(id, tooDeep('Frame'));
      return;
    }
    const { error, value } = frameSchema.validate(parsed, { errors: { label: 'key' } });
    if (error) {
      this.sendError(id, new PredgateError('VALIDATION_ERROR', `Bad frame: ${error.details[0]?.message ?? error.message}`));
      return;
    }
    const frame = value as ClientFrame;
    if (!actions.includes(frame.action)) {
      this.sendError(frame.id, new PredgateError('BAD_REQUEST', `Unknown action "${String(frame.action).slice(0, 64)}": use subscribe or unsubscribe`));
      return;
    }
    if (frame.action === 'ping') this.send({ event: 'pong', id: frame.id });
    else if (frame.action === 'unsubscribe') this.unsubscribe(frame.id);
    else this.subscribe(frame);
  }

  /**
   * Ends the subscriptions to a venue (`close`), or, with a method and a
   * symbol, that symbol's watches (an HTTP unwatch); answers how many ended.
   */
  end(venue: string, method?: string, symbol?: string): number {
    let ended = 0;
    for (const [id, subscription] of [...this.subscriptions]) {
      if (subscription.venue !== venue || (method !== undefined && subscription.symbolMethod !== method)) continue;
      if (symbol === undefined || (subscription.stops.size === 1 && subscription.stops.has(symbol))) {
        this.endSubscription(id, true);
        ended += 1;
      } else if (subscription.stops.has(symbol)) {
        this.dropSymbol(id, symbol);
        ended += 1;
      }
    }
    return ended;
  }

  /** Closes the socket normally (1000) with a reason, ending what it held. */
  shut(reason: string): void {
    if (this.closed) return;
    this.close();
    this.sink.close(1000, reason);
  }

  /** The socket closed: every subscription ends with it. */
  close(): void {
    if (this.closed) return;
    for (const id of [...this.subscriptions.keys()]) this.endSubscription(id, false);
    this.closed = true;
    this.outbox.close();
  }

  private subscribe(frame: ClientFrame): void {
    const { id } = frame;
    let credentials: ClientFrame['credentials'];
    try {
      if (this.subscriptions.has(id)) throw new PredgateError('BAD_REQUEST', `Subscription "${id}" is already active: unsubscribe it or use another id`);
      if (!frame.exchange || !frame.method) throw new PredgateError('VALIDATION_ERROR', 'A subscribe frame names its "exchange" and "method"');
      const venue = this.venues.get(frame.exchange);
      if (!venue) throw new PredgateError('NOT_FOUND', `Unknown exchange "${frame.exchange}"`, { detail: { exchanges: this.venues.ids } });
      const routed = routedMethod(this.methods, frame.method, venue.id);
      credentials = frame.credentials;
      const input = routed.fromBody({ args: frame.args ?? [], ...(credentials ? { credentials } : {}) });
      const watches = symbolWatches(venue, routed, input.args, this.methods, input.credentials);
      const signature = JSON.stringify([venue.id, routed.name, input.args, credentials ?? null]);
      const repeated = [...this.subscriptions].find(([, subscription]) => subscription.signature === signature)?.[0];
      if (repeated !== undefined) this.endSubscription(repeated, true);
      if (this.symbols + watches.length > this.options.maxSymbols) {
        throw new PredgateError('BAD_REQUEST', `At most ${this.options.maxSymbols} symbols per connection`, {
          detail: { maxSymbols: this.options.maxSymbols },
        });
      }
      this.options.keyWatches.take(this.owner.keyId, watches.length);
      const subscription: Subscription = {
        venue: venue.id,
        symbolMethod: watches[0]?.target.method ?? routed.name,
        signature,
        stops: new Map(),
        acknowledged: false,
        delivering: false,
        held: new Map(),
        turn: undefined,
      };
      this.subscriptions.set(id, subscription);
      this.symbols += watches.length;
      for (const watch of watches) {
        // The frame around the payload is this subscription's own; the payload's JSON is shared by every client seeing the same view.
        const head = `{"id":${JSON.stringify(id)},"event":"data","method":${JSON.stringify(routed.name)},"symbol":${JSON.stringify(watch.symbol)},"data":`;
        const key = watch.keep === 'latest' ? `${id}\n${watch.symbol}` : undefined;
        const stop = this.hub.watch(watch.target, {
          data: (payload) => {
            if (this.subscriptions.get(id) !== subscription) return;
            const text = `${head}${jsonOf(watch.view(payload))}}`;
            if (subscription.delivering) {
              this.outbox.push(text, key, id);
              return;
            }
            // While held, only the latest book counts; trades wait in order.
            const earlier = key === undefined ? (subscription.held.get(watch.symbol)?.texts ?? []) : [];
            subscription.held.set(watch.symbol, { key, texts: [...earlier, text] });
            this.deliverWhenComplete(id, subscription);
          },
          error: (error, final) => {
            if (this.subscriptions.get(id) !== subscription) return;
            this.sendError(id, error, watch.symbol);
            if (!final) return;
            // A refusal before `subscribed` refuses the whole subscription; after it, only the symbol ends.
            if (subscription.acknowledged) this.dropSymbol(id, watch.symbol);
            else this.endSubscription(id, false);
          },
        });
        subscription.stops.set(watch.symbol, stop);
      }
      subscription.turn = setImmediate(() => {
        subscription.turn = undefined;
        if (this.subscriptions.get(id) !== subscription) return;
        subscription.acknowledged = true;
        this.send({ event: 'subscribed', id });
        this.deliverWhenComplete(id, subscription);
      });
    } catch (error) {
      this.sendError(id, scrubCredentials(error, credentials as Credentials | undefined));
    }
  }

  /** Once `subscribed` is out and every symbol has a payload, sends the frames held until now and delivers from then on. */
  private deliverWhenComplete(id: string, subscription: Subscription): void {
    if (!subscription.acknowledged || subscription.delivering || subscription.held.size < subscription.stops.size) return;
    subscription.delivering = true;
    for (const { key, texts } of subscription.held.values()) for (const text of texts) this.outbox.push(text, key, id);
    subscription.held.clear();
  }

  private dropSymbol(id: string, symbol: string): void {
    const subscription = this.subscriptions.get(id);
    const stop = subscription?.stops.get(symbol);
    if (!subscription || !stop) return;
    subscription.stops.delete(symbol);
    subscription.held.delete(symbol);
    this.symbols -= 1;
    this.options.keyWatches.give(this.owner.keyId, 1);
    stop();
    if (subscription.stops.size === 0) this.endSubscription(id, false);
    else this.deliverWhenComplete(id, subscription);
  }

  /** Ends a subscription at once: its watches stop and its frames still waiting are dropped. */
  private endSubscription(id: string, notify: boolean): void {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return;
    this.subscriptions.delete(id);
    clearImmediate(subscription.turn);
    this.symbols -= subscription.stops.size;
    this.options.keyWatches.give(this.owner.keyId, subscription.stops.size);
    for (const stop of subscription.stops.values()) stop();
    subscription.stops.clear();
    this.outbox.discard(id);
    if (notify) this.send({ event: 'unsubscribed', id });
  }

  private unsubscribe(id: string): void {
    if (!this.subscriptions.has(id)) {
      this.sendError(id, new PredgateError('NOT_FOUND', `No active subscription "${id}"`));
      return;
    }
    this.endSubscription(id, true);
  }

  private sendError(id: string | null, thrown: unknown, symbol?: string): void {
    const { error } = toErrorResponse(thrown).body;
    this.send({
      event: 'error',
      id,
      ...(symbol !== undefined ? { symbol } : {}),
      error: { code: error.code, message: error.message, retryable: error.retryable },
    });
  }

  private send(frame: Record<string, unknown>): void {
    if (this.closed) return;
    this.outbox.push(JSON.stringify(frame));
  }
}
