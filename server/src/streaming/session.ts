import { PredgateError, toErrorResponse } from '@predgate/core';
import type { Credentials, MethodRegistry } from '@predgate/core';
import Joi from 'joi';
import { maxJsonDepth, nestsDeeperThan, tooDeep } from '../json-depth.js';
import type { VenueDirectory } from '../venues/directory.js';
import { scrubCredentials } from '../venues/scrub.js';
import type { StreamHub } from './hub.js';
import { Outbox } from './outbox.js';
import type { FrameSink, OutboxOptions } from './outbox.js';
import { symbolWatches } from './watches.js';

export interface SessionOptions {
  /** Text frames longer than this get an error frame and are otherwise ignored. */
  maxFrameBytes: number;
  /** Subscriptions (symbols) one socket may hold. */
  maxSymbols: number;
  outbox: OutboxOptions;
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

/**
 * One `/ws` connection: reads client frames, keeps the connection's
 * subscriptions by id, writes `subscribed`, `data` (one frame per symbol) and
 * `error` frames. A frame it cannot use gets an error frame and the socket
 * stays usable; closing the socket ends every subscription it held.
 */
export class StreamSession {
  private readonly subscriptions = new Map<string, Array<() => void>>();
  private readonly outbox: Outbox;
  private symbols = 0;
  private closed = false;

  constructor(
    sink: FrameSink,
    private readonly hub: StreamHub,
    private readonly venues: VenueDirectory,
    private readonly methods: MethodRegistry,
    private readonly options: SessionOptions,
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

  /** The socket closed: every subscription ends with it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.outbox.close();
    for (const stops of this.subscriptions.values()) for (const stop of stops) stop();
    this.subscriptions.clear();
  }

  private subscribe(frame: ClientFrame): void {
    const { id } = frame;
    let credentials: ClientFrame['credentials'];
    try {
      if (this.subscriptions.has(id)) throw new PredgateError('BAD_REQUEST', `Subscription "${id}" is already active: unsubscribe it or use another id`);
      if (!frame.exchange || !frame.method) throw new PredgateError('VALIDATION_ERROR', 'A subscribe frame names its "exchange" and "method"');
      const venue = this.venues.get(frame.exchange);
      if (!venue) throw new PredgateError('NOT_FOUND', `Unknown exchange "${frame.exchange}"`, { detail: { exchanges: this.venues.ids } });
      const routed = this.methods.get(frame.method);
      if (!routed) throw new PredgateError('NOT_FOUND', `Unknown method "${frame.method}"`, { detail: { method: frame.method } });
      credentials = frame.credentials;
      const input = routed.fromBody({ args: frame.args ?? [], ...(credentials ? { credentials } : {}) });
      const watches = symbolWatches(venue, routed, input.args, this.methods, input.credentials);
      if (this.symbols + watches.length > this.options.maxSymbols) {
        throw new PredgateError('BAD_REQUEST', `At most ${this.options.maxSymbols} symbols per connection`, {
          detail: { maxSymbols: this.options.maxSymbols },
        });
      }
      const stops: Array<() => void> = [];
      this.subscriptions.set(id, stops);
      this.symbols += watches.length;
      this.send({ event: 'subscribed', id });
      for (const watch of watches) {
        // The frame around the payload is this subscription's own; the payload's JSON is shared by every client seeing the same view.
        const head = `{"id":${JSON.stringify(id)},"event":"data","method":${JSON.stringify(routed.name)},"symbol":${JSON.stringify(watch.symbol)},"data":`;
        const key = watch.keep === 'latest' ? `${id}\n${watch.symbol}` : undefined;
        const stop = this.hub.watch(watch.target, {
          data: (payload) => {
            if (!this.closed) this.outbox.push(`${head}${jsonOf(watch.view(payload))}}`, key);
          },
          error: (error, final) => {
            this.sendError(id, error, watch.symbol);
            if (final) this.dropSymbol(id, stop);
          },
        });
        stops.push(stop);
      }
    } catch (error) {
      this.sendError(id, scrubCredentials(error, credentials as Credentials | undefined));
    }
  }

  private dropSymbol(id: string, stop: () => void): void {
    const stops = this.subscriptions.get(id);
    if (!stops) return;
    const index = stops.indexOf(stop);
    if (index >= 0) stops.splice(index, 1);
    this.symbols -= 1;
    if (stops.length === 0) this.subscriptions.delete(id);
  }

  private unsubscribe(id: string): void {
    const stops = this.subscriptions.get(id);
    if (!stops) {
      this.sendError(id, new PredgateError('NOT_FOUND', `No active subscription "${id}"`));
      return;
    }
    this.subscriptions.delete(id);
    this.symbols -= stops.length;
    for (const stop of stops) stop();
    this.send({ event: 'unsubscribed', id });
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

  private send(frame: Record<string, unknown>, key?: string): void {
    if (this.closed) return;
    this.outbox.push(JSON.stringify(frame), key);
  }
}
