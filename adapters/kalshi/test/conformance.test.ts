import type { Order, OrderBook } from '@predgate/core';
import { runConformanceSuite, runRoundTripLaw } from '@predgate/core/testkit';
import type { ConformanceCase } from '@predgate/core/testkit';
import { once } from 'node:events';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { kalshiDemoPlugin, kalshiPlugin } from '../src/index.js';
import { replayedAdapter } from './support/replay.js';
import { testKeyId, testPrivateKey } from './support/test-key.js';

const credentials = { apiKey: testKeyId, privateKey: testPrivateKey };

/** Kalshi's websocket replayed on 127.0.0.1: each subscribed ticker gets a book snapshot or a print. */
const socketVenue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketVenue, 'listening');
let sid = 0;
socketVenue.on('connection', (socket) =>
  socket.on('message', (data) => {
    const { id, cmd, params } = JSON.parse(data.toString()) as { id: number; cmd: string; params: { channels: string[]; market_tickers: string[] } };
    if (cmd !== 'subscribe') return;
    sid += 1;
    const [channel] = params.channels;
    socket.send(JSON.stringify({ id, type: 'subscribed', msg: { channel, sid } }));
    for (const ticker of params.market_tickers) {
      const msg =
        channel === 'trade'
          ? {
              type: 'trade',
              sid,
              seq: 1,
              msg: {
                trade_id: `t-${ticker}`,
                market_ticker: ticker,
                yes_price_dollars: '0.3600',
                no_price_dollars: '0.6400',
                count_fp: '5.00',
                taker_side: 'yes',
                ts: 1778767501,
              },
            }
          : {
              type: 'orderbook_snapshot',
              sid,
              seq: 1,
              msg: { market_ticker: ticker, yes_dollars_fp: [['0.4200', '13.00']], no_dollars_fp: [['0.5500', '2.00']] },
            };
      socket.send(JSON.stringify(msg));
    }
  }),
);
afterAll(() => new Promise((resolve) => socketVenue.close(resolve)));
const streamConfig = { hosts: { ws: `ws://127.0.0.1:${(socketVenue.address() as { port: number }).port}/trade-api/ws/v2` } };

/** Calls every claimed method can make with the venue's recorded traffic alone. */
interface Samples {
  events: Record<string, unknown>;
  eventId: string;
  /** An event whose metadata was recorded. */
  metadataTicker: string;
  marketId: string;
  outcomeId: string;
  ohlcv: Record<string, unknown>;
  tradesLimit: number;
  bookIds: string[];
  orderId: string;
  restingOrderId: string;
  order: Record<string, unknown>;
}

const samples: Record<'kalshi' | 'kalshi-demo', Samples> = {
  kalshi: {
    events: { status: 'all', limit: 4 },
    eventId: 'KXPRESNOMD-28',
    metadataTicker: 'KXFEDDECISION-26JUN',
    marketId: 'KXXRPD-26AUG2721-T2.1399',
    outcomeId: 'KXFEDDECISION-26JUN-H0',
    ohlcv: { resolution: '1h', start: '2026-05-14T10:00:00Z', end: '2026-05-14T14:00:00Z' },
    tradesLimit: 5,
    bookIds: ['KXFEDDECISION-26JUN-H0', 'kxfeddecision-26jun-h0-no', 'KXELONMARS-99'],
    orderId: '5be0c7a4-91d3-4f62-a8e0-3c7f1b2d9e55',
    restingOrderId: 'a3e1f5d2-0c9b-4e77-8f21-6b4d2e9c1a08',
    order: { marketId: 'KXHIGHNY-26MAY15-B73.5', outcomeId: 'KXHIGHNY-26MAY15-B73.5', side: 'buy', type: 'limit', amount: 10, price: 0.34 },
  },
  'kalshi-demo': {
    events: { status: 'all', limit: 1 },
    eventId: 'KXHIGHNY-26MAY15',
    metadataTicker: 'KXHIGHNY-26MAY15',
    marketId: 'KXHIGHNY-26MAY15-B73.5',
    outcomeId: 'KXHIGHNY-26MAY15-B73.5',
    ohlcv: { resolution: '1h', start: '2026-05-14T12:00:00Z', end: '2026-05-14T14:00:00Z' },
    tradesLimit: 10,
    bookIds: ['KXHIGHNY-26MAY15-B73.5-NO', 'KXHIGHNY-26MAY15-T76'],
    orderId: '5be0c7a4-91d3-4f62-a8e0-3c7f1b2d9e55',
    restingOrderId: 'a3e1f5d2-0c9b-4e77-8f21-6b4d2e9c1a08',
    order: { marketId: 'KXHIGHNY-26MAY15-B73.5', outcomeId: 'KXHIGHNY-26MAY15-B73.5', side: 'buy', type: 'limit', amount: 10, price: 0.34 },
  },
};

const nonEmpty = (result: unknown) => (Array.isArray(result) && result.length > 0 ? [] : ['data: expected at least one item']);

function casesFor(s: Samples): Record<string, ConformanceCase[]> {
  const book = (d: { adapter: { fetchOrderBook?: (...args: never[]) => unknown } }) =>
    (d.adapter.fetchOrderBook as (id: string, limit?: number, params?: object) => Promise<OrderBook>)(s.outcomeId, undefined, { side: 'yes' });
  return {
    fetchEvents: [{ args: [s.events], check: nonEmpty }],
    fetchEventsPaginated: [{ args: [{ limit: (s.events as { limit: number }).limit }], check: (page) => nonEmpty((page as { data: unknown[] }).data) }],
    fetchEvent: [
      { args: [{ eventId: s.eventId }], check: (event) => ((event as { id: string }).id === s.eventId ? [] : ['data.id: not the event asked for']) },
    ],
    fetchMarkets: [{ args: [{ eventId: s.eventId, limit: 2 }], check: nonEmpty }],
    fetchMarket: [
      {
        args: [{ marketId: s.marketId }],
        check: (market) => ((market as { marketId: string }).marketId === s.marketId ? [] : ['data.marketId: not the market asked for']),
      },
    ],
    fetchEventMetadata: [{ args: [s.metadataTicker] }],
    fetchSeries: [{ args: [], check: nonEmpty }],
    fetchOrderBook: [{ title: 'YES side', args: [s.outcomeId, null, { side: 'yes' }] }],
    fetchOrderBooks: [{ args: [s.bookIds] }],
    fetchTrades: [{ args: [s.outcomeId, { limit: s.tradesLimit }], check: nonEmpty }],
    fetchOHLCV: [{ args: [s.outcomeId, s.ohlcv], check: nonEmpty }],
    filterEvents: [{ args: async (d) => [await d.adapter.fetchEvents!(s.events), { marketCount: { min: 1 } }], check: nonEmpty }],
    filterMarkets: [{ args: async (d) => [[await d.adapter.fetchMarket!({ marketId: s.marketId })], { volume24h: { min: 0 } }], check: nonEmpty }],
    getExecutionPrice: [{ args: async (d) => [await book(d), 'buy', 1] }],
    getExecutionPriceDetailed: [{ args: async (d) => [await book(d), 'sell', 1] }],
    fetchBalance: [{ args: [], check: nonEmpty }],
    fetchPositions: [{ args: [], check: nonEmpty }],
    fetchOpenOrders: [{ args: [], check: nonEmpty }],
    fetchClosedOrders: [{ args: [], check: nonEmpty }],
    fetchAllOrders: [{ args: [], check: nonEmpty }],
    fetchOrder: [{ args: [s.orderId], check: (order) => ((order as Order).id === s.orderId ? [] : ['data.id: not the order asked for']) }],
    fetchMyTrades: [{ args: [], check: nonEmpty }],
    createOrder: [{ args: [s.order], check: (order) => ((order as Order).status === 'open' ? [] : ['data.status: a limit order below the market rests']) }],
    buildOrder: [{ args: [s.order] }],
    submitOrder: [
      {
        args: async (d) => [await (d.adapter.buildOrder as (params: object) => Promise<unknown>)(s.order)],
        check: (order) => ((order as Order).status === 'open' ? [] : ['data.status: a limit order below the market rests']),
      },
    ],
    cancelOrder: [{ args: [s.restingOrderId], check: (order) => ((order as Order).status === 'cancelled' ? [] : ['data.status: expected "cancelled"']) }],
    watchOrderBook: [
      {
        args: [s.outcomeId],
        check: (book) => ((book as OrderBook).bids.length > 0 && (book as OrderBook).asks.length > 0 ? [] : ['data: expected both sides']),
      },
    ],
    watchTrades: [{ args: [s.outcomeId], check: nonEmpty }],
  };
}

runConformanceSuite(test, { name: 'kalshi', create: () => replayedAdapter(kalshiPlugin, credentials, streamConfig), cases: casesFor(samples.kalshi) });
runConformanceSuite(test, {
  name: 'kalshi-demo',
  create: () => replayedAdapter(kalshiDemoPlugin, credentials, streamConfig),
  cases: casesFor(samples['kalshi-demo']),
});

// The round-trip law on the recorded Fed-decision chain (listing, event, market, books, tape and candles of the same ids).
runRoundTripLaw(test, {
  name: 'kalshi',
  create: () => replayedAdapter(kalshiPlugin, credentials),
  events: { series: 'KXFEDDECISION', limit: 5 },
  sample: { events: 1, markets: 1 },
});
