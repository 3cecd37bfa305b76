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

/** Engine.IO v4's open packet, with Socket.IO's default ping interval (25 s) and timeout (20 s). */
export const engineIoOpen = '0{"sid":"engine-1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}';

/** A local venue speaking Socket.IO v4 in one namespace: see `startSocketIoVenue`. */
export type SocketIoVenue = LocalSocketVenue & {
  /** How many times clients joined the namespace. */
  joins(): number;
  /** The payload of each event of this name clients emitted in the namespace, in order. */
  emitted(name: string): unknown[];
  /** Emits an event in the namespace to every open connection. */
  emit(name: string, payload: unknown): void;
};

/**
 * A LocalSocketVenue that speaks as much Socket.IO v4 (Engine.IO over a
 * websocket) as a stream needs: `open` on each connection (a shorter ping
 * interval makes the client's silence timeout short), and the answer to a
 * join of `namespace` (`''` for the default one, else `/name`).
 */
export async function startSocketIoVenue(namespace = '', open = engineIoOpen): Promise<SocketIoVenue> {
  // Packets in a namespace other than the default one carry its name and a comma after their type.
  const prefix = namespace === '' ? '' : `${namespace},`;
  const join = `40${prefix}`;
  const event = `42${prefix}`;
  const venue = await LocalSocketVenue.start({
    onConnection: (socket) => socket.send(open),
    onFrame(text, socket) {
      if (text === join) socket.send(`${join}{"sid":"socket-1"}`);
    },
  });
  return Object.assign(venue, {
    joins: () => venue.frames.filter((frame) => frame === join).length,
    emitted: (name: string) =>
      venue.frames
        .filter((frame) => frame.startsWith(event))
        .map((frame) => JSON.parse(frame.slice(event.length)) as [string, unknown])
        .filter(([emittedName]) => emittedName === name)
        .map(([, payload]) => payload),
    emit: (name: string, payload: unknown) => venue.send(`${event}${JSON.stringify([name, payload])}`),
  });
}

/**
 * Waits for `condition`, polling every 5 ms; `what` names it in the error thrown after `ms`.
 * The limit only catches a condition that never comes, so it is generous: a busy machine is slow, not wrong.
 */
export async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
