import { PredgateError } from '../errors.js';
import { RedialingSocket } from './redialing-socket.js';
import type { RedialingSocketOptions } from './redialing-socket.js';
import { EngineSession, SocketIoPacket, connectErrorMessage, decodePacket, disconnectFrame, engineUrl, eventFrame, eventOf } from './socket-io.js';

export interface SocketIoConnectionOptions extends Pick<RedialingSocketOptions, 'venue' | 'pingIntervalMs' | 'backoff' | 'wanted' | 'onDrop'> {
  /** The Socket.IO root; the Engine.IO path and query are added. */
  url: string;
  /** `/` for the default namespace, else `/name`. */
  namespace: string;
  /** The namespace is joined: events can be emitted (subscriptions flushed). */
  onJoin?(): void;
  /** An event the venue emitted in the namespace. */
  onEvent(name: string, payload: unknown): void;
  /** The connection is gone: state tied to it is reset here. */
  onDown?(): void;
  /** Something the venue sent that cannot be read, or its refusal of the namespace: every watcher is told; the stream goes on. */
  onProblem(error: PredgateError): void;
}

/**
 * A Socket.IO v4 client on one redialling websocket, as much of it as a
 * market stream needs: the namespace joined on every connection (the backoff
 * starts over only once it is), the venue's Engine.IO pings answered and its
 * silence past the heartbeat terms taken as a drop, the namespace left before
 * an orderly close, and events handed on by name. A venue that leaves or
 * refuses the namespace is dialled again like any drop.
 */
export class SocketIoConnection {
  private readonly socket: RedialingSocket;
  private readonly engine: EngineSession;
  private joined = false;

  constructor(private readonly options: SocketIoConnectionOptions) {
    const { venue, namespace } = options;
    this.socket = new RedialingSocket({
      venue,
      dial: () => ({ url: engineUrl(options.url) }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      confirmedOn: 'confirm',
      wanted: options.wanted,
      onMessage: (text) => this.engine.receive(text),
      onDown: () => {
        this.engine.stop();
        this.joined = false;
        options.onDown?.();
      },
      onDrop: options.onDrop,
      onRefused: (status) =>
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the websocket handshake (${status})`, { exchange: venue, retryable: true }),
      farewell: () => disconnectFrame(namespace),
    });
    this.engine = new EngineSession(this.socket, namespace, {
      packet: (text) => this.packet(text),
      unknown: (description) => options.onProblem(this.drift(description)),
    });
  }

  /** The namespace is joined on the open connection: events can go out. */
  get isOpen(): boolean {
    return this.joined;
  }

  /** A connection is open or being dialled. */
  get active(): boolean {
    return this.socket.active;
  }

  connect(): void {
    this.socket.connect();
  }

  close(): Promise<void> {
    return this.socket.close();
  }

  /** Emits an event in the namespace; false when it is not joined (what was not sent is sent again after the next join). */
  emit(name: string, payload: unknown): boolean {
    return this.joined && this.socket.send(eventFrame(this.options.namespace, name, payload));
  }

  /** A Socket.IO packet: `<type>[/namespace,][ack id][JSON]`. */
  private packet(text: string): void {
    const { venue, namespace } = this.options;
    const packet = decodePacket(text);
    if (typeof packet === 'string') {
      this.options.onProblem(this.drift(packet));
      return;
    }
    if (packet.namespace !== namespace) return;
    switch (packet.type) {
      case SocketIoPacket.connect:
        this.joined = true;
        this.socket.confirm();
        this.options.onJoin?.();
        return;
      case SocketIoPacket.disconnect:
        // The venue left the namespace: drop the connection and redial.
        this.socket.terminate();
        return;
      case SocketIoPacket.connectError:
        this.options.onProblem(
          new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the Socket.IO namespace ${namespace}: ${connectErrorMessage(packet.data)}`, {
            exchange: venue,
            retryable: true,
          }),
        );
        this.socket.terminate();
        return;
      case SocketIoPacket.event: {
        const event = eventOf(packet.data);
        if (event) this.options.onEvent(event.name, event.payload);
        else this.options.onProblem(this.drift('an event without a name'));
        return;
      }
      default:
        return;
    }
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }
}
