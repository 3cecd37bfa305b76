import { fixedClock } from '@predgate/core';
import { LocalSocketVenue } from '@predgate/core/testkit';
import { GeminiStream } from '../../src/streams/market-stream.js';

/**
 * Gemini's market-data websocket on 127.0.0.1: each command
 * `{"id","method","params":["<symbol>@<stream>"]}` is answered
 * `{"id","status":200}`, or with an error for a symbol starting `GEMI-NOPE`,
 * as the venue answers a symbol it does not list.
 */
export function localGeminiVenue(): Promise<LocalSocketVenue> {
  return LocalSocketVenue.start({
    onFrame(text, socket) {
      const { id, params } = JSON.parse(text) as { id: string; params: string[] };
      const refused = params.some((name) => name.startsWith('GEMI-NOPE'));
      socket.send(JSON.stringify(refused ? { id, status: 400, error: { code: -1, msg: 'Invalid symbol' } } : { id, status: 200 }));
    },
  });
}

/** A Gemini stream on the local venue, with short ping and redial times. */
export function localGeminiStream(venue: LocalSocketVenue): GeminiStream {
  return new GeminiStream({
    url: venue.url,
    venue: 'gemini-titan',
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    depth: 'depth20',
    pingIntervalMs: 20,
    backoff: { initialMs: 5, maxMs: 10 },
  });
}
