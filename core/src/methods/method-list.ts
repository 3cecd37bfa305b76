import Joi from 'joi';
import {
  balanceSchema,
  builtOrderSchema,
  createOrderParamsSchema,
  eventFetchParamsSchema,
  eventFilterCriteriaSchema,
  eventPageParamsSchema,
  eventSchema,
  executionPriceResultSchema,
  fraction,
  marketFetchParamsSchema,
  marketFilterCriteriaSchema,
  marketPageParamsSchema,
  marketSchema,
  myTradesParamsSchema,
  ohlcvParamsSchema,
  orderBookParamsSchema,
  orderBookSchema,
  orderHistoryParamsSchema,
  orderLevelSchema,
  orderSchema,
  pageSchema,
  positionSchema,
  priceCandleSchema,
  seriesFetchParamsSchema,
  seriesSchema,
  tradeSchema,
  tradesParamsSchema,
  userTradeSchema,
  venueDescriptionSchema,
  argumentBounds,
} from '../model/index.js';
import type {
  Balance,
  BuiltOrder,
  CreateOrderParams,
  Event,
  EventFetchParams,
  EventFilterCriteria,
  ExecutionPriceResult,
  Market,
  MarketFetchParams,
  MarketFilterCriteria,
  MyTradesParams,
  OHLCVParams,
  Order,
  OrderBook,
  OrderBookParams,
  OrderHistoryParams,
  Page,
  PageParams,
  Position,
  PriceCandle,
  Series,
  SeriesFetchParams,
  Trade,
  TradesParams,
  UserTrade,
  VenueDescription,
} from '../model/index.js';
import { bookToDepth } from '../behaviour/order-book.js';
import { snapshotBounds } from '../behaviour/snapshots.js';
import { arg, method, optional, returns, stream } from './declaration.js';
import { computed, eachBook, eventLookup, eventPages, marketLookup, marketPages, marketsById } from './derivations.js';

const getOrPost = ['GET', 'POST'] as const;
const postOnly = ['POST'] as const;

/** A book a client hands in for a computation: time fields are optional there. */
const orderBookInput = Joi.object({
  bids: Joi.array().items(orderLevelSchema).required(),
  asks: Joi.array().items(orderLevelSchema).required(),
}).unknown(true);

const orderSide = Joi.string().valid('buy', 'sell');

/**
 * The core method list. Each declaration here is the whole of a method: it
 * exists at `/api/{exchange}/{name}` for every adapter that implements it, is
 * validated, documented and checked by the test kit, from this entry alone.
 */
export const coreMethods = {
  fetchEvents: method({
    doc: `Events with their markets, with optional keyword search and filters (\`limit\` at most ${argumentBounds.listLimit}, \`query\` at most ${argumentBounds.text} characters).`,
    args: [optional(arg.params<EventFetchParams>('params', eventFetchParamsSchema))],
    result: returns<Event[]>(Joi.array().items(eventSchema)),
    verbs: getOrPost,
    catalog: true,
  }),
  fetchEvent: method({
    doc: 'One event by `eventId` or `slug` (or the first match of the fetchEvents parameters).',
    args: [optional(arg.params<EventFetchParams>('params', eventFetchParamsSchema))],
    result: returns<Event>(eventSchema),
    verbs: getOrPost,
    catalog: true,
    notFound: 'EVENT_NOT_FOUND',
    derive: eventLookup,
  }),
  fetchEventsPaginated: method({
    doc: `One page of events and the cursor of the next (\`limit\` at most ${argumentBounds.listLimit}, ${snapshotBounds.defaultLimit} by default). ${snapshotDoc('events')}`,
    args: [optional(arg.params<PageParams<EventFilterCriteria>>('params', eventPageParamsSchema))],
    result: returns<Page<Event>>(pageSchema(eventSchema)),
    verbs: getOrPost,
    derive: eventPages,
  }),
  fetchMarkets: method({
    doc: `Markets, with optional keyword search and filters (\`limit\` at most ${argumentBounds.listLimit}, \`query\` at most ${argumentBounds.text} characters).`,
    args: [optional(arg.params<MarketFetchParams>('params', marketFetchParamsSchema))],
    result: returns<Market[]>(Joi.array().items(marketSchema)),
    verbs: getOrPost,
    catalog: true,
  }),
  fetchMarket: method({
    doc: 'One market by `marketId`, `slug` or `outcomeId`.',
    args: [optional(arg.params<MarketFetchParams>('params', marketFetchParamsSchema))],
    result: returns<Market>(marketSchema),
    verbs: getOrPost,
    catalog: true,
    notFound: 'MARKET_NOT_FOUND',
    derive: marketLookup,
  }),
  fetchMarketsPaginated: method({
    doc: `One page of markets and the cursor of the next (\`limit\` at most ${argumentBounds.listLimit}, ${snapshotBounds.defaultLimit} by default). ${snapshotDoc('markets')}`,
    args: [optional(arg.params<PageParams<MarketFilterCriteria>>('params', marketPageParamsSchema))],
    result: returns<Page<Market>>(pageSchema(marketSchema)),
    verbs: getOrPost,
    derive: marketPages,
  }),
  loadMarkets: method({
    doc: `The venue's active markets keyed by \`marketId\` (at most ${snapshotBounds.items}), listed once and kept ${snapshotBounds.ttlMs / 60_000} minutes unless \`reload\` is true.`,
    args: [optional(arg.boolean('reload'))],
    result: returns<Record<string, Market>>(Joi.object().pattern(Joi.string(), marketSchema)),
    verbs: getOrPost,
    derive: marketsById,
  }),
  fetchEventMetadata: method({
    doc: "The venue's own metadata object for one event, where the venue has a dedicated endpoint.",
    args: [arg.id('eventTicker')],
    result: returns<Record<string, unknown>>(Joi.object().unknown(true)),
    verbs: getOrPost,
  }),
  fetchSeries: method({
    doc: `Series: the recurring templates events are instances of (\`limit\` at most ${argumentBounds.listLimit}).`,
    args: [optional(arg.params<SeriesFetchParams>('params', seriesFetchParamsSchema))],
    result: returns<Series[]>(Joi.array().items(seriesSchema)),
    verbs: getOrPost,
  }),
  fetchOrderBook: method({
    doc: `L2 order book of one outcome: live, or from the archive with \`since\` (and \`until\` for a range of at most ${argumentBounds.listLimit} books).`,
    args: [
      arg.id('outcomeId', { aliases: ['id'] }),
      optional(arg.integer('limit', Joi.number().integer().min(1).max(argumentBounds.listLimit))),
      optional(arg.params<OrderBookParams>('params', orderBookParamsSchema)),
    ],
    result: returns<OrderBook | OrderBook[]>(Joi.alternatives(orderBookSchema, Joi.array().items(orderBookSchema))),
    verbs: getOrPost,
    archive: true,
    // pmxtjs 2.41 sends the book side where the limit now stands: [outcomeId, 'yes'].
    legacyArgs: (args) => {
      const [outcomeId, second, params, ...rest] = args;
      if (second !== 'yes' && second !== 'no') return args;
      return [outcomeId, undefined, { ...(params as object | undefined), side: second }, ...rest];
    },
  }),
  fetchOrderBooks: method({
    doc: `Live L2 order books of several outcomes at once (at most ${argumentBounds.ids}), keyed by outcome id.`,
    args: [arg.ids('outcomeIds')],
    result: returns<Record<string, OrderBook>>(Joi.object().pattern(Joi.string(), orderBookSchema)),
    verbs: getOrPost,
  }),
  fetchTrades: method({
    doc: `Recent prints on the venue's public tape for one outcome (\`limit\` at most ${argumentBounds.listLimit}).`,
    args: [arg.id('outcomeId', { aliases: ['id'] }), optional(arg.params<TradesParams>('params', tradesParamsSchema))],
    result: returns<Trade[]>(Joi.array().items(tradeSchema)),
    verbs: getOrPost,
  }),
  fetchOHLCV: method({
    doc: `Price candles of one outcome at a resolution (\`limit\` at most ${argumentBounds.candleLimit}).`,
    args: [arg.id('outcomeId', { aliases: ['id'] }), arg.params<OHLCVParams>('params', ohlcvParamsSchema)],
    result: returns<PriceCandle[]>(Joi.array().items(priceCandleSchema)),
    verbs: getOrPost,
  }),
  filterEvents: method({
    doc: `The events of a given list (at most ${argumentBounds.items}) that match a text query or a criteria object.`,
    args: [
      arg.list<Event>('events', Joi.array().items(eventSchema)),
      arg.object<string | EventFilterCriteria>('criteria', Joi.alternatives(Joi.string().allow('').max(argumentBounds.text), eventFilterCriteriaSchema)),
    ],
    result: returns<Event[]>(Joi.array().items(eventSchema)),
    verbs: postOnly,
    derive: computed.filterEvents,
  }),
  filterMarkets: method({
    doc: `The markets of a given list (at most ${argumentBounds.items}) that match a text query or a criteria object.`,
    args: [
      arg.list<Market>('markets', Joi.array().items(marketSchema)),
      arg.object<string | MarketFilterCriteria>('criteria', Joi.alternatives(Joi.string().allow('').max(argumentBounds.text), marketFilterCriteriaSchema)),
    ],
    result: returns<Market[]>(Joi.array().items(marketSchema)),
    verbs: postOnly,
    derive: computed.filterMarkets,
  }),
  getExecutionPrice: method({
    doc: 'Average price to fill `amount` shares against a book; 0 when the book cannot fill it.',
    args: [
      arg.object<Pick<OrderBook, 'bids' | 'asks'>>('orderBook', orderBookInput),
      arg.string<'buy' | 'sell'>('side', orderSide),
      arg.number('amount', Joi.number().greater(0)),
    ],
    result: returns<number>(fraction),
    verbs: postOnly,
    derive: computed.getExecutionPrice,
  }),
  getExecutionPriceDetailed: method({
    doc: 'Average price, filled amount and whether `amount` shares can be filled against a book.',
    args: [
      arg.object<Pick<OrderBook, 'bids' | 'asks'>>('orderBook', orderBookInput),
      arg.string<'buy' | 'sell'>('side', orderSide),
      arg.number('amount', Joi.number().greater(0)),
    ],
    result: returns<ExecutionPriceResult>(executionPriceResultSchema),
    verbs: postOnly,
    derive: computed.getExecutionPriceDetailed,
  }),
  createOrder: method({
    doc: 'Places an order on the venue.',
    args: [arg.params<CreateOrderParams>('params', createOrderParamsSchema)],
    result: returns<Order>(orderSchema),
    verbs: postOnly,
    credentials: true,
  }),
  buildOrder: method({
    doc: 'Prepares and signs an order without sending it.',
    args: [arg.params<CreateOrderParams>('params', createOrderParamsSchema)],
    result: returns<BuiltOrder>(builtOrderSchema),
    verbs: postOnly,
    credentials: true,
  }),
  submitOrder: method({
    doc: 'Sends an order made by buildOrder.',
    args: [arg.object<BuiltOrder>('built', builtOrderSchema)],
    result: returns<Order>(orderSchema),
    verbs: postOnly,
    credentials: true,
  }),
  cancelOrder: method({
    doc: 'Cancels one open order.',
    args: [arg.id('orderId')],
    result: returns<Order>(orderSchema),
    verbs: postOnly,
    credentials: true,
  }),
  fetchOrder: method({
    doc: 'One of the account’s orders.',
    args: [arg.id('orderId')],
    result: returns<Order>(orderSchema),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchOpenOrders: method({
    doc: 'The account’s open orders, optionally of one market.',
    args: [optional(arg.id('marketId'))],
    result: returns<Order[]>(Joi.array().items(orderSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchClosedOrders: method({
    doc: `The account’s filled, cancelled and rejected orders (\`limit\` at most ${argumentBounds.listLimit}).`,
    args: [optional(arg.params<OrderHistoryParams>('params', orderHistoryParamsSchema))],
    result: returns<Order[]>(Joi.array().items(orderSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchAllOrders: method({
    doc: `All of the account’s orders, open and closed (\`limit\` at most ${argumentBounds.listLimit}).`,
    args: [optional(arg.params<OrderHistoryParams>('params', orderHistoryParamsSchema))],
    result: returns<Order[]>(Joi.array().items(orderSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchMyTrades: method({
    doc: `The account’s fills (\`limit\` at most ${argumentBounds.listLimit}).`,
    args: [optional(arg.params<MyTradesParams>('params', myTradesParamsSchema))],
    result: returns<UserTrade[]>(Joi.array().items(userTradeSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchPositions: method({
    doc: 'The account’s positions (or those of a public address, where the venue allows).',
    args: [optional(arg.id('address'))],
    result: returns<Position[]>(Joi.array().items(positionSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  fetchBalance: method({
    doc: 'The account’s balances (or those of a public address, where the venue allows).',
    args: [optional(arg.id('address'))],
    result: returns<Balance[]>(Joi.array().items(balanceSchema)),
    verbs: getOrPost,
    credentials: true,
  }),
  watchOrderBook: stream({
    doc: 'Live L2 book of one outcome: on `/ws` a data frame with the full book at every change; over HTTP the next book (`limit` levels a side).',
    args: [arg.id('outcomeId', { aliases: ['id'] }), optional(arg.integer('limit', Joi.number().integer().min(1).max(argumentBounds.listLimit)))],
    result: returns<OrderBook>(orderBookSchema),
    stream: {
      symbols: 'one',
      keep: 'latest',
      upstreamArgs: 1,
      view: (book, [, limit]) => bookToDepth(book as OrderBook, limit as number | undefined),
      stop: 'unwatchOrderBook',
    },
  }),
  watchOrderBooks: stream({
    doc: `Live L2 books of several outcomes (at most ${argumentBounds.ids}): on \`/ws\` one data frame per outcome; over HTTP the books keyed by outcome id.`,
    args: [arg.ids('outcomeIds'), optional(arg.integer('limit', Joi.number().integer().min(1).max(argumentBounds.listLimit)))],
    result: returns<Record<string, OrderBook>>(Joi.object().pattern(Joi.string(), orderBookSchema)),
    stream: { symbols: 'many', each: 'watchOrderBook', keep: 'latest', upstreamArgs: 1 },
    derive: eachBook,
  }),
  watchTrades: stream({
    doc: `Live prints of one outcome, in batches as they happen (\`since\` in Unix ms and \`limit\` at most ${argumentBounds.listLimit} filter each batch).`,
    args: [
      arg.id('outcomeId', { aliases: ['id'] }),
      optional(arg.id('address')),
      optional(arg.integer('since', Joi.number().integer().min(0))),
      optional(arg.integer('limit', Joi.number().integer().min(1).max(argumentBounds.listLimit))),
    ],
    result: returns<Trade[]>(Joi.array().items(tradeSchema)),
    stream: {
      symbols: 'one',
      keep: 'all',
      upstreamArgs: 2,
      view: (trades, [, , since, limit]) => {
        const fresh = (trades as Trade[]).filter((trade) => since === undefined || trade.timestamp >= (since as number));
        return limit === undefined ? fresh : fresh.slice(-(limit as number));
      },
      stop: 'unwatchTrades',
    },
  }),
  unwatchOrderBook: method({
    doc: 'Ends the HTTP watch of one outcome’s book made by this API key (on `/ws`, unsubscribe by id instead); true if one was running.',
    args: [arg.id('outcomeId', { aliases: ['id'] })],
    result: returns<boolean>(Joi.boolean()),
    verbs: postOnly,
    answeredBy: 'gateway',
  }),
  unwatchTrades: method({
    doc: 'Ends the HTTP watch of one outcome’s trades made by this API key; true if one was running.',
    args: [arg.id('outcomeId', { aliases: ['id'] })],
    result: returns<boolean>(Joi.boolean()),
    verbs: postOnly,
    answeredBy: 'gateway',
  }),
  close: method({
    doc: 'Ends what the calling API key holds on the venue: its HTTP watches, and its `/ws` subscriptions to the venue from the caller’s address (a socket left with none is closed). pmxt clients send it from `close()`.',
    args: [],
    result: returns<ClosedWatches>(
      Joi.object({
        watches: Joi.number().integer().min(0).required(),
        subscriptions: Joi.number().integer().min(0).required(),
        sockets: Joi.number().integer().min(0).required(),
      }),
    ),
    verbs: postOnly,
    answeredBy: 'gateway',
  }),
  describe: method({
    doc: 'The venue: hosts, rate limit, credential members, adapter package and version, capability map.',
    args: [],
    result: returns<VenueDescription>(venueDescriptionSchema),
    verbs: getOrPost,
    answeredBy: 'gateway',
  }),
};

export type CoreMethods = typeof coreMethods;

/** What `close` ended: HTTP watches, `/ws` subscriptions, and sockets left with none. */
export interface ClosedWatches {
  watches: number;
  subscriptions: number;
  sockets: number;
}

function snapshotDoc(items: string): string {
  return `Where the venue has no cursor of its own, core pages a snapshot, as pmxt does: a call without \`cursor\` lists at most ${snapshotBounds.items} ${items} once, and its cursors page that snapshot for ${snapshotBounds.ttlMs / 60_000} minutes.`;
}
export type MethodName = keyof CoreMethods;

/** The methods the catalog may answer instead of the venue: those declared `catalog: true`. */
export type CatalogMethodName = { [M in MethodName]: CoreMethods[M]['catalog'] extends true ? M : never }[MethodName];

export const catalogMethodNames = (Object.keys(coreMethods) as MethodName[]).filter((name): name is CatalogMethodName => coreMethods[name].catalog);
