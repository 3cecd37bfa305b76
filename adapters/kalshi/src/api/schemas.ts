import { checkPayload, venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * The shapes the adapter reads from Kalshi, checked before normalising: only
 * the members it needs to find its way (tickers, the lists and objects that
 * hold them). Prices and counts are read field by field in both their
 * current (`*_dollars`, `*_fp`) and legacy forms. Unknown members pass.
 */

const amount = venueValue.amount().allow(null, '');
const priceFields = ['last_price_dollars', 'last_price', 'yes_bid_dollars', 'yes_bid', 'yes_ask_dollars', 'yes_ask'];
const countFields = ['volume_fp', 'volume', 'volume_24h_fp', 'volume_24h', 'open_interest_fp', 'open_interest', 'settlement_value_dollars'];
/** A market without any price field has drifted: its price would otherwise be read as 0. Timestamps are optional (settled markets lack some). */
const market = Joi.object({
  ticker: Joi.string().min(1).required(),
  event_ticker: Joi.string().allow(''),
  ...Object.fromEntries([...priceFields, ...countFields].map((field) => [field, amount])),
}).or(...priceFields);
/** One unreadable market or event is left out (reported as drift), never the page: lists are checked item by item. */
const markets = venueValue.items(market, { id: 'ticker' }).allow(null);
const event = Joi.object({ event_ticker: Joi.string().min(1).required(), markets });
/** `[price, count]`: dollar strings in the current ladders, integer cents in the legacy ones. */
const ladder = Joi.array().items(Joi.array().ordered(venueValue.amount().required(), venueValue.amount().required())).allow(null);
const ladders = Joi.object({ yes_dollars: ladder, no_dollars: ladder, yes: ladder, no: ladder }).allow(null);

const order = Joi.object({ order_id: Joi.string().min(1).required(), ticker: Joi.string().min(1).required() });
const series = Joi.object({ ticker: Joi.string().min(1).required() });

const schemas = {
  'GET /events': Joi.object({ events: venueValue.items(event, { id: 'event_ticker' }).required(), cursor: Joi.string().allow('', null) }).required(),
  'GET /events/{ticker}': Joi.object({ event: event.required(), markets }).required(),
  'GET /markets/{ticker}': Joi.object({ market: market.required() }).required(),
  'GET /markets/{ticker}/orderbook': Joi.object({ orderbook_fp: ladders, orderbook: ladders }).or('orderbook_fp', 'orderbook').required(),
  'GET /markets/orderbooks': Joi.object({
    orderbooks: venueValue
      .items(Joi.object({ ticker: Joi.string().min(1).required(), orderbook_fp: ladders, orderbook: ladders }), { id: 'ticker' })
      .allow(null),
  }).required(),
  'GET /markets': Joi.object({ markets }).required(),
  'GET /series': Joi.object({ series: venueValue.items(series, { id: 'ticker' }).allow(null) }).required(),
  'GET /series/{ticker}': Joi.object({ series: series.required() }).required(),
  'GET /series/{series}/markets/{ticker}/candlesticks': Joi.object({ candlesticks: Joi.array().items(Joi.object()).allow(null) }).required(),
  'GET /portfolio/balance': Joi.object({ balance: Joi.alternatives(Joi.number(), Joi.string()), balance_dollars: Joi.alternatives(Joi.number(), Joi.string()) })
    .or('balance', 'balance_dollars')
    .required(),
  'GET /portfolio/orders/{id}': Joi.object({ order: order.required() }).required(),
  'POST /portfolio/orders': Joi.object({ order: order.required() }).required(),
  'DELETE /portfolio/orders/{id}': Joi.object({ order: order.required() }).required(),
};

/** A Kalshi answer checked against the shape of its endpoint; EXCHANGE_NOT_AVAILABLE naming the field otherwise. */
export function checked<T>(endpoint: keyof typeof schemas, venue: string, body: unknown): T {
  return checkPayload<T>(schemas[endpoint], body, { venue, endpoint });
}
