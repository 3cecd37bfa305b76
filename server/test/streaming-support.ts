import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import type { StreamingConfig } from '../src/config.js';

/** A client socket on `/ws` that collects every frame it receives. */
export class Client {
  readonly frames: Array<Record<string, unknown>> = [];
  private readonly waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
    const ws = new WebSocket(url, options);
    const client = new Client(ws);
    await once(ws, 'open');
    return client;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for a frame matching `test` that arrived at or after index `from`; fails after `ms`. */
  async next(test: (frame: Record<string, unknown>) => boolean, ms = 2_000, from = 0): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.slice(from).find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame in ${ms} ms; got ${JSON.stringify(this.frames.slice(-5)).slice(0, 2_000)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  count(test: (frame: Record<string, unknown>) => boolean): number {
    return this.frames.filter(test).length;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = once(this.ws, 'close');
    this.ws.close();
    await closed;
  }
}

/** The gateway's streaming settings in the venue-socket tests: a short data timeout, bounds no test reaches. */
export function venueStreaming(dataTimeoutMs: number): StreamingConfig {
  return {
    dataTimeoutMs,
    heartbeatMs: 30_000,
    maxFrameBytes: 64 * 1024,
    maxMessageBytes: 1024 * 1024,
    maxSymbols: 100,
    highWaterBytes: 1024 * 1024,
    maxQueuedFrames: 1_000,
    slowConsumerMs: 10_000,
    httpWaitMs: 1_000,
    httpIdleMs: 1_000,
  };
}

export const dataOf = (id: string) => (frame: Record<string, unknown>) => frame.event === 'data' && frame.id === id;
export const errorOf = (id: string | null) => (frame: Record<string, unknown>) => frame.event === 'error' && frame.id === id;

export async function until(condition: () => boolean, ms = 2_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A venue's websocket replayed on 127.0.0.1: records every message clients
 * send it (text frames, parsed when JSON) and the upgrade requests, and sends
 * what the test tells it to.
 */
export class FakeVenueSocket {
  readonly received: unknown[] = [];
  readonly upgrades: IncomingMessage[] = [];
  readonly sockets = new Set<WebSocket>();
  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket, request) => {
      this.sockets.add(socket);
      this.upgrades.push(request);
      socket.on('message', (data) => {
        const text = data.toString();
        try {
          this.received.push(JSON.parse(text));
        } catch {
          this.received.push(text);
        }
      });
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeVenueSocket> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    return new FakeVenueSocket(server);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Messages received that match. */
  messages<T = Record<string, unknown>>(test: (message: Record<string, unknown>) => boolean): T[] {
    return this.received.filter(
      (message): message is Record<string, unknown> => typeof message === 'object' && message !== null && test(message as Record<string, unknown>),
    ) as T[];
  }

  /** Sends to every open connection: objects as JSON, strings as they are. */
  send(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const socket of this.sockets) socket.send(text);
  }

  /** Drops every connection abruptly, as a venue restart would. */
  drop(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
