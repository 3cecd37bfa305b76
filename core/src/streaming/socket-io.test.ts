import { describe, expect, it } from 'vitest';
import { connectErrorMessage, connectFrame, decodeEngineFrame, decodePacket, disconnectFrame, engineUrl, eventFrame, eventOf } from './socket-io.js';

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
