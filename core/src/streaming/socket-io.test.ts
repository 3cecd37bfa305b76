import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EngineSession,
  connectErrorMessage,
  connectFrame,
  decodeEngineFrame,
  decodePacket,
  disconnectFrame,
  engineUrl,
  eventFrame,
  eventOf,
} from './socket-io.js';

describe('Socket.IO v4 over a websocket', () => {
  it('builds the Engine.IO websocket endpoint under a root', () => {
    expect(engineUrl('wss://ws.example.com')).toBe('wss://ws.example.com/socket.io/?EIO=4&transport=websocket');
    expect(engineUrl('wss://prod-api.rain.one/')).toBe('wss://prod-api.rain.one/socket.io/?EIO=4&transport=websocket');
    expect(engineUrl('ws://127.0.0.1:9/socket.io/')).toBe('ws://127.0.0.1:9/socket.io/?EIO=4&transport=websocket');
    expect(engineUrl('ws://127.0.0.1:9/socket.io/?EIO=3&transport=polling')).toBe('ws://127.0.0.1:9/socket.io/?EIO=4&transport=websocket');
  });

  it('reads Engine.IO frames and answers pings', () => {
    expect(decodeEngineFrame('0{"sid":"x","pingInterval":25000,"pingTimeout":20000}')).toEqual({ kind: 'open', quietMs: 45_000 });
    expect(decodeEngineFrame('0{"sid":"x"}')).toEqual({ kind: 'open', quietMs: undefined });
    expect(decodeEngineFrame('0not json')).toEqual({ kind: 'open', quietMs: undefined });
    expect(decodeEngineFrame('2')).toEqual({ kind: 'ping', reply: '3' });
    expect(decodeEngineFrame('2probe')).toEqual({ kind: 'ping', reply: '3probe' });
    expect(decodeEngineFrame('3')).toEqual({ kind: 'pong' });
    expect(decodeEngineFrame('6')).toEqual({ kind: 'noop' });
    expect(decodeEngineFrame('1')).toEqual({ kind: 'close' });
    expect(decodeEngineFrame('42["a",1]')).toEqual({ kind: 'message', packet: '2["a",1]' });
    expect(decodeEngineFrame('x'.repeat(40))).toEqual({ kind: 'unknown', text: 'x'.repeat(20) });
    expect(decodeEngineFrame('')).toEqual({ kind: 'unknown', text: '' });
  });

  it('decodes Socket.IO packets with and without a namespace and ack id', () => {
    expect(decodePacket('0/markets,{"sid":"s"}')).toEqual({ type: '0', namespace: '/markets', ackId: undefined, data: { sid: 's' } });
    expect(decodePacket('0{"sid":"s"}')).toEqual({ type: '0', namespace: '/', ackId: undefined, data: { sid: 's' } });
    expect(decodePacket('2["order-filled/p1",{"a":1}]')).toEqual({ type: '2', namespace: '/', ackId: undefined, data: ['order-filled/p1', { a: 1 }] });
    expect(decodePacket('2/markets,12["x"]')).toEqual({ type: '2', namespace: '/markets', ackId: 12, data: ['x'] });
    expect(decodePacket('1/markets,')).toEqual({ type: '1', namespace: '/markets', ackId: undefined, data: undefined });
    expect(decodePacket('')).toBe('an empty Socket.IO packet');
    expect(decodePacket('9["x"]')).toBe('a Socket.IO packet of unknown type');
    expect(decodePacket('2["x"')).toBe('a Socket.IO packet that is not JSON');
  });

  it('reads event arguments and connect errors', () => {
    expect(eventOf(['name', { a: 1 }, 2])).toEqual({ name: 'name', payload: { a: 1 }, args: [{ a: 1 }, 2] });
    expect(eventOf(['name'])).toEqual({ name: 'name', payload: undefined, args: [] });
    expect(eventOf([1, 2])).toBeUndefined();
    expect(eventOf({ name: 'x' })).toBeUndefined();
    expect(connectErrorMessage({ message: 'Invalid namespace' })).toBe('Invalid namespace');
    expect(connectErrorMessage(undefined)).toBe('refused');
    expect(connectErrorMessage('nope')).toBe('nope');
  });

  it('encodes namespace joins, leaves and events', () => {
    expect(connectFrame()).toBe('40');
    expect(connectFrame('/')).toBe('40');
    expect(connectFrame('/markets')).toBe('40/markets,');
    expect(connectFrame('/', { token: 't' })).toBe('40{"token":"t"}');
    expect(disconnectFrame('/markets')).toBe('41/markets,');
    expect(disconnectFrame()).toBe('41');
    expect(eventFrame('/markets', 'subscribe_market_prices', { marketSlugs: ['a'] })).toBe('42/markets,["subscribe_market_prices",{"marketSlugs":["a"]}]');
    expect(eventFrame('/', 'ping')).toBe('42["ping"]');
  });
});

describe('the Engine.IO side of a session', () => {
  afterEach(() => vi.useRealTimers());

  function session() {
    const sent: string[] = [];
    const seen: string[] = [];
    const socket = { send: (text: string) => sent.push(text), terminate: vi.fn() };
    const engine = new EngineSession(socket, '/markets', { packet: (text) => seen.push(`packet ${text}`), unknown: (text) => seen.push(`unknown ${text}`) });
    return { engine, sent, seen, socket };
  }

  it('joins the namespace on open, answers pings, hands messages on and reports unknown frames', () => {
    const { engine, sent, seen } = session();
    engine.receive('0{"sid":"s","pingInterval":25000,"pingTimeout":20000}');
    engine.receive('2probe');
    engine.receive('3');
    engine.receive('6');
    engine.receive('42/markets,["book",{}]');
    engine.receive('9?');
    expect(sent).toEqual([connectFrame('/markets'), '3probe']);
    expect(seen).toEqual(['packet 2/markets,["book",{}]', 'unknown a frame of unknown type "9?"']);
    engine.stop();
  });

  it('ends the socket when the venue closes the session, or stays silent past its heartbeat terms', () => {
    vi.useFakeTimers();
    const closed = session();
    closed.engine.receive('1');
    expect(closed.socket.terminate).toHaveBeenCalledTimes(1);
    closed.engine.stop();

    const quiet = session();
    quiet.engine.receive('0{"sid":"s","pingInterval":1000,"pingTimeout":500}');
    vi.advanceTimersByTime(1_499);
    expect(quiet.socket.terminate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(quiet.socket.terminate).toHaveBeenCalledTimes(1);

    const stopped = session();
    stopped.engine.receive('2');
    stopped.engine.stop();
    vi.advanceTimersByTime(60_000);
    expect(stopped.socket.terminate).not.toHaveBeenCalled();
  });
});
