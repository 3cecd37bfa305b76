import { checkPayload } from '@predgate/core';
import Joi from 'joi';

/**
 * The shapes the adapter reads from Kalshi, checked before normalising: only
 * the members it needs to find its way (tickers, the lists and objects that
 * hold them). Prices and counts are read field by field in both their
 * current (`*_dollars`, `*_fp`) and legacy forms. Unknown members pass.
 */

const market = Joi.object({ ticker: Joi.string().min(1).required(), event_ticker: Joi.string().allow('') });
const event = Joi.object({ event_ticker: Joi.string().min(1).required(), markets: Joi.array().items(market).allow(null) });
const ladders = Joi.object().allow(null);

const schemas = {
  'GET /events': Joi.object({ events: Joi.array().items(event).required(), cursor: Joi.string().allow('', null) }).required(),
  'GET /events/{ticker}': Joi.object({ event: event.required(), markets: Joi.array().items(market).allow(null) }).required(),
  'GET /markets/{ticker}': Joi.object({ market: market.required() }).required(),
  'GET /markets/{ticker}/orderbook': Joi.object({ orderbook_fp: ladders, orderbook: ladders }).or('orderbook_fp', 'orderbook').required(),
};

/** A Kalshi answer checked against the shape of its endpoint; EXCHANGE_NOT_AVAILABLE naming the field otherwise. */
export function checked<T>(endpoint: keyof typeof schemas, venue: string, body: unknown): T {
  return checkPayload<T>(schemas[endpoint], body, { venue, endpoint });
}
