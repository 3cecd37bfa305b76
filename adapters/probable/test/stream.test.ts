import { readFileSync } from 'node:fs';
import { LocalSocketVenue, runStreamSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import { localProbableStream } from './support/local-stream.js';

const payloads = JSON.parse(readFileSync(new URL('fixtures/payloads/websocket.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
const token = '42922145754268586232753586497078434283008194607014016171721522108902381902084';
/** A token the local venue refuses (400), as Probable answers one it does not list. */
const unlisted = '1'.repeat(40);

interface Command {
  id: number;
  method: string;
  params: string[];
}

/** The book after the price changes: the 0.61 bid taken out, an ask at 0.62 added. */
const changed = {
  bids: [{ price: 0.6, size: 2500 }],
  asks: [
    { price: 0.62, size: 40 },
    { price: 0.63, size: 900 },
  ],
};

runStreamSuites(test, {
  name: 'probable',
  // Each command acknowledged with status 200, or refused with 400 when it names the unlisted token.
  venue: () =>
    LocalSocketVenue.start({
      onFrame(text, socket) {
        const { id, params } = JSON.parse(text) as Command;
        socket.send(JSON.stringify(params.includes(`book:${unlisted}`) ? { ...payloads.refused, id } : { id, status: 200, result: null }));
      },
    }),
  create: (venue) => localProbableStream(venue),
  isSubscription: (frame) => (JSON.parse(frame) as Command).method === 'SUBSCRIBE',
  script: {
    outcomeId: token,
    snapshot: {
      frames: [payloads.book],
      book: {
        bids: [
          { price: 0.61, size: 1200.5 },
          { price: 0.6, size: 2500 },
        ],
        asks: [{ price: 0.63, size: 900 }],
      },
    },
    update: { frames: [payloads.priceChange], book: changed },
    // An unreadable book leaves the book unknown until the next whole one, to which the changes apply.
    drift: { frames: ['not json', payloads.unreadableBook, payloads.book, payloads.priceChange], book: changed },
    unknownOutcomes: ['4512', unlisted],
  },
});
