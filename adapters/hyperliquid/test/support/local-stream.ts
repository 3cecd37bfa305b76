import { fixedClock } from '@predgate/core';
import { LocalSocketVenue } from '@predgate/core/testkit';
import { HyperliquidStream } from '../../src/streams/market-stream.js';

/** Hyperliquid's websocket on 127.0.0.1, acknowledging subscriptions (`subscriptionResponse`) and pings (`pong`) as the venue does. */
export function localHyperliquidVenue(): Promise<LocalSocketVenue> {
  return LocalSocketVenue.start({
    onFrame(text, socket) {
      const message = JSON.parse(text) as { method: string };
      if (message.method === 'subscribe' || message.method === 'unsubscribe') {
        socket.send(JSON.stringify({ channel: 'subscriptionResponse', data: message }));
      }
      if (message.method === 'ping') socket.send(JSON.stringify({ channel: 'pong' }));
    },
  });
}

/** A stream dialling the local venue at Hyperliquid's path, with short ping and redial times. */
export function localHyperliquidStream(venue: LocalSocketVenue): HyperliquidStream {
  return new HyperliquidStream({
    url: `${venue.url}/ws`,
    venue: 'hyperliquid',
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    pingIntervalMs: 20,
    backoff: { initialMs: 5, maxMs: 10 },
  });
}
