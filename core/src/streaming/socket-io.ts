/**
 * The generic pieces of Socket.IO v4 spoken by hand over one websocket
 * (Engine.IO v4 frames, `transport=websocket` only): the endpoint URL, frame
 * and packet decoding, the answer to the server's ping, and the packets that
 * join, leave and emit on a namespace. Pure string work: the adapter owns its
 * `ws` connection, timers and redials.
 */

/** The Engine.IO websocket endpoint under a Socket.IO root (`/socket.io/` added unless present, `EIO=4&transport=websocket`). */
export function engineUrl(root: string): string {
  const url = new URL(root);
  if (!url.pathname.endsWith('/socket.io/')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/socket.io/`;
  url.searchParams.set('EIO', '4');
  url.searchParams.set('transport', 'websocket');
  return url.toString();
}

/** One Engine.IO frame as read from the websocket. */
export type EngineFrame =
  /** `0{…}`: the handshake; `quietMs` is pingInterval + pingTimeout when both are given. */
  | { kind: 'open'; quietMs: number | undefined }
  | { kind: 'close' }
  /** `2…`: answer with `reply` (the pong with the same payload). */
  | { kind: 'ping'; reply: string }
  | { kind: 'pong' }
  | { kind: 'noop' }
  /** `4…`: a Socket.IO packet, still encoded. */
  | { kind: 'message'; packet: string }
  | { kind: 'unknown'; text: string };

export function decodeEngineFrame(text: string): EngineFrame {
  switch (text[0]) {
    case '0': {
      let terms: { pingInterval?: unknown; pingTimeout?: unknown } | undefined;
      try {
        terms = JSON.parse(text.slice(1)) as typeof terms;
      } catch {
        terms = undefined;
      }
      const interval = Number(terms?.pingInterval);
      const timeout = Number(terms?.pingTimeout);
      return { kind: 'open', quietMs: interval > 0 && timeout > 0 ? interval + timeout : undefined };
    }
    case '1':
      return { kind: 'close' };
    case '2':
      return { kind: 'ping', reply: `3${text.slice(1)}` };
    case '3':
      return { kind: 'pong' };
    case '6':
      return { kind: 'noop' };
    case '4':
      return { kind: 'message', packet: text.slice(1) };
    default:
      return { kind: 'unknown', text: text.slice(0, 20) };
  }
}

/**
 * The Engine.IO side of a Socket.IO session on one socket: the namespace is
 * joined when the session opens, the venue's pings answered, the socket ended
 * when the venue closes the session or stays silent past its heartbeat terms
 * (a drop, dialled again like any other), and each message handed on as a
 * Socket.IO packet. A frame of a type Engine.IO does not have goes to `unknown`.
 */
export class EngineSession {
  private silence: NodeJS.Timeout | undefined;
  /** Until the venue's handshake says otherwise. */
  private quietMs = 45_000;

  constructor(
    private readonly socket: { send(text: string): void; terminate(): void },
    private readonly namespace: string,
    private readonly handlers: { packet(text: string): void; unknown(description: string): void },
  ) {}

  receive(text: string): void {
    this.stop();
    const frame = decodeEngineFrame(text);
    if (frame.kind === 'open' && frame.quietMs !== undefined) this.quietMs = frame.quietMs;
    this.silence = setTimeout(() => this.socket.terminate(), this.quietMs);
    switch (frame.kind) {
      case 'open':
        this.socket.send(connectFrame(this.namespace));
        return;
      case 'ping':
        this.socket.send(frame.reply);
        return;
      case 'pong':
      case 'noop':
        return;
      case 'close':
        this.socket.terminate();
        return;
      case 'message':
        this.handlers.packet(frame.packet);
        return;
      default:
        this.handlers.unknown(`a frame of unknown type "${frame.text}"`);
    }
  }

  /** The connection is down: its silence timer goes with it. */
  stop(): void {
    clearTimeout(this.silence);
  }
}

/** Socket.IO packet types (binary events are not handled). */
export const SocketIoPacket = { connect: '0', disconnect: '1', event: '2', ack: '3', connectError: '4' } as const;

export type SocketIoPacketType = (typeof SocketIoPacket)[keyof typeof SocketIoPacket] | '5' | '6';

/** A decoded Socket.IO packet: `<type>[/namespace,][ack id][JSON]`. */
export interface DecodedPacket {
  type: SocketIoPacketType;
  namespace: string;
  ackId: number | undefined;
  data: unknown;
}

/** The packet inside an Engine.IO message frame, or a string naming what was wrong with it. */
export function decodePacket(text: string): DecodedPacket | string {
  const match = /^([0-6])(?:(\/[^,]*),)?(\d*)([\s\S]*)$/.exec(text);
  if (!match) return text === '' ? 'an empty Socket.IO packet' : 'a Socket.IO packet of unknown type';
  const [, type, namespace = '/', ack = '', body = ''] = match;
  let data: unknown;
  if (body !== '') {
    try {
      data = JSON.parse(body) as unknown;
    } catch {
      return 'a Socket.IO packet that is not JSON';
    }
  }
  return { type: type as SocketIoPacketType, namespace, ackId: ack === '' ? undefined : Number(ack), data };
}

/** An event packet's name and first argument, or undefined when `data` is not `[name, …]`. */
export function eventOf(data: unknown): { name: string; payload: unknown; args: unknown[] } | undefined {
  if (!Array.isArray(data) || typeof data[0] !== 'string') return undefined;
  const [name, ...args] = data as [string, ...unknown[]];
  return { name, payload: args[0], args };
}

/** The message of a connect_error packet (`{ message }` or a bare value). */
export function connectErrorMessage(data: unknown): string {
  const message = typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : data;
  return String(message ?? 'refused').slice(0, 200);
}

function prefix(namespace: string): string {
  return namespace === '/' || namespace === '' ? '' : `${namespace},`;
}

/** The Engine.IO frame that joins a namespace (`40` for `/`, `40/markets,` otherwise), optionally with auth. */
export function connectFrame(namespace = '/', auth?: Record<string, unknown>): string {
  return `40${prefix(namespace)}${auth === undefined ? '' : JSON.stringify(auth)}`;
}

/** The Engine.IO frame that leaves a namespace. */
export function disconnectFrame(namespace = '/'): string {
  return `41${prefix(namespace)}`;
}

/** The Engine.IO frame that emits an event on a namespace. */
export function eventFrame(namespace: string, name: string, ...args: unknown[]): string {
  return `42${prefix(namespace)}${JSON.stringify([name, ...args])}`;
}
