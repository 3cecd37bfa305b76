import { readFileSync } from 'node:fs';
import { fixedClock } from '@predgate/core';
import { LocalSocketVenue } from '@predgate/core/testkit';
import type { LocalSocketVenueHooks } from '@predgate/core/testkit';
import type { WebSocket } from 'ws';
import { KalshiStream } from '../../src/streams/market-stream.js';
import { testKeyId, testPrivateKey } from './test-key.js';

/** Kalshi websocket messages in the documented shapes (see the file's note). */
export const websocketPayloads = JSON.parse(readFileSync(new URL('../fixtures/payloads/kalshi/websocket.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

/** A command the stream sent. */
export interface Command {
  id: number;
  cmd: string;
  params: { channels?: string[]; market_tickers?: string[]; sids?: number[]; action?: string };
}

/** The commands a local venue received, of one kind or all. */
export function commandsTo(venue: LocalSocketVenue, cmd?: string): Command[] {
  return venue.frames.map((frame) => JSON.parse(frame) as Command).filter((command) => cmd === undefined || command.cmd === cmd);
}

/**
 * Kalshi's websocket on 127.0.0.1, answering each subscribe as the venue does:
 * `subscribed` with subscription ids counted from 1 on each connection, or
 * error 16 ("Market not found") for a ticker starting `KXNOPE`. With
 * `acknowledge: false` the test answers (`onFrame` still records).
 */
export function localKalshiVenue({ acknowledge = true, hooks = {} }: { acknowledge?: boolean; hooks?: LocalSocketVenueHooks } = {}): Promise<LocalSocketVenue> {
  const sids = new WeakMap<WebSocket, number>();
  return LocalSocketVenue.start({
    ...hooks,
    onFrame(text, socket) {
      hooks.onFrame?.(text, socket);
      const command = JSON.parse(text) as Command;
      if (!acknowledge || command.cmd !== 'subscribe') return;
      if (command.params.market_tickers?.some((ticker) => ticker.startsWith('KXNOPE'))) {
        socket.send(JSON.stringify({ ...websocketPayloads.unknownMarket, id: command.id }));
        return;
      }
      const sid = (sids.get(socket) ?? 0) + 1;
      sids.set(socket, sid);
      socket.send(JSON.stringify({ id: command.id, type: 'subscribed', msg: { channel: command.params.channels![0], sid } }));
    },
  });
}

/** The venue's Kalshi-shaped URL. */
export const kalshiUrl = (venue: LocalSocketVenue) => `${venue.url}/trade-api/ws/v2`;

/** A stream over `urls` signed with the test key (or with no key at all), with short redial times. */
export function localKalshiStream(urls: string[], { signed = true } = {}): KalshiStream {
  return new KalshiStream({
    urls,
    venue: 'kalshi',
    credentials: signed ? { apiKey: testKeyId, privateKey: testPrivateKey } : undefined,
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
  });
}
