import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';

/** A venue's protocol, as much of it as a stream test needs the fake to speak on its own. */
export interface LocalSocketVenueHooks {
  /** Called as each client connects, e.g. to send a handshake frame or read the request's headers. */
  onConnection?(socket: WebSocket, request: IncomingMessage): void;
  /** Called with each frame received, after it is recorded, e.g. to acknowledge a command. */
  onFrame?(text: string, socket: WebSocket): void;
}

/**
 * A venue's websocket replayed on 127.0.0.1 for an adapter's stream tests:
 * it records what clients send and sends what the test says.
 */
export class LocalSocketVenue {
  /** The connections open now. */
  readonly sockets = new Set<WebSocket>();
  /** Every frame received from any client, in order of arrival. */
  readonly frames: string[] = [];
  /** The request URL (path and query) of each connection, in order. */
  readonly requestUrls: string[] = [];

  private constructor(
    private readonly server: WebSocketServer,
    hooks: LocalSocketVenueHooks,
  ) {
    server.on('connection', (socket, request) => {
      this.sockets.add(socket);
      this.requestUrls.push(request.url ?? '');
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('message', (data) => {
        const text = data.toString();
        this.frames.push(text);
        hooks.onFrame?.(text, socket);
      });
      hooks.onConnection?.(socket, request);
    });
  }

  /** A venue listening on a free port of 127.0.0.1. */
  static async start(hooks: LocalSocketVenueHooks = {}): Promise<LocalSocketVenue> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    return new LocalSocketVenue(server, hooks);
  }

  /** `ws://127.0.0.1:<port>`, without a trailing slash, so a test appends the venue's path. */
  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Sends to every open connection: a string as it is (a raw frame), anything else as JSON. */
  send(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const socket of this.sockets) socket.send(text);
  }

  /** Cuts every connection without a close handshake, as a network failure does; new connections are still accepted. */
  drop(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  async close(): Promise<void> {
    // The server closes only once its connections are gone.
    this.drop();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Waits for `condition`, polling every 5 ms; `what` names it in the error thrown after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
