import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Smarkets' v3 REST API (trailing slashes required; id lists in the path,
 * comma-separated; array query parameters as repeated keys). Prices are basis
 * points of percent (5000 = 50 %), quantities ten-thousandths of the currency.
 */

export interface RawEvent {
  id: string;
  name: string;
  slug?: string | null;
  full_slug?: string | null;
  description?: string | null;
  state?: string | null;
  type?: string | { domain?: string | null; scope?: string | null } | null;
  start_datetime?: string | null;
  end_date?: string | null;
}

export interface RawMarket {
  id: string;
  event_id: string;
  name: string;
  slug?: string | null;
  description?: string | null;
  state?: string | null;
  market_type?: { name?: string | null; param?: string | null } | null;
  category?: string | null;
  winner_count?: number | null;
}

export interface RawContract {
  id: string;
  market_id: string;
  name: string;
  state_or_outcome?: string | null;
  display_order?: number | null;
  contract_type?: { name?: string | null } | null;
}

export interface RawQuoteLevel {
  price: number;
  quantity: number;
}

export interface RawOrder {
  id: string;
  market_id: string;
  contract_id: string;
  side: 'buy' | 'sell';
  type?: string | null;
  state: string;
  price: number;
  quantity: number;
  quantity_filled: number;
  quantity_unfilled: number;
  average_price_matched?: number | null;
  created_datetime: string;
}

/** One row of the account's activity (statement); fills have an `order.execute` source. */
export interface RawActivity {
  seq: number;
  subseq: number;
  source: string;
  /** UTC, usually without a zone. */
  timestamp: string;
  order_id: string;
  market_id: string;
  contract_id: string;
  side: 'buy' | 'sell';
  price: number;
  quantity?: number | null;
  quantity_change?: number | null;
  commission?: string | number | null;
}

export interface RawPlacement {
  order_id: string;
  market_id: string;
  contract_id: string;
  side: 'buy' | 'sell';
  price: number;
  quantity: number;
  available_quantity: number;
  total_executed_quantity: number;
  executed_avg_price?: number | null;
}

const id = venueValue.id();
const optional = Joi.string().allow('', null);
const basisPoints = Joi.number().integer().min(0).max(10_000);
const quantity = Joi.number().integer().min(0);

const event = Joi.object({
  id: id.required(),
  name: Joi.string().allow('').required(),
  slug: optional,
  full_slug: optional,
  description: optional,
  state: optional,
  type: Joi.alternatives(Joi.string(), Joi.object({ domain: optional, scope: optional })).allow(null),
  start_datetime: venueValue.time().allow(null, ''),
  end_date: venueValue.time().allow(null, ''),
});
/** Events and markets are checked one by one: an unreadable one is left out as drift (named by its id), never the page. */
export const eventsPage = Joi.object({ events: venueValue.items(event, { id: 'id' }).required(), pagination: Joi.object({ next_page: optional }) }).required();
export const markets = Joi.object({
  markets: venueValue
    .items(
      Joi.object({
        id: id.required(),
        event_id: id.required(),
        name: Joi.string().allow('').required(),
        slug: optional,
        description: optional,
        state: optional,
        market_type: Joi.object({ name: optional, param: optional }).allow(null),
        category: optional,
        winner_count: Joi.number().integer().allow(null),
      }),
      { id: 'id' },
    )
    .required(),
}).required();
export const contracts = Joi.object({
  contracts: Joi.array()
    .items(
      Joi.object({
        id: id.required(),
        market_id: id.required(),
        name: Joi.string().allow('').required(),
        state_or_outcome: optional,
        display_order: Joi.number().allow(null),
        contract_type: Joi.object({ name: optional }).allow(null),
      }),
    )
    .required(),
}).required();
export const volumes = Joi.object({
  volumes: Joi.array()
    .items(Joi.object({ market_id: id.required(), volume: Joi.number().min(0).required() }))
    .required(),
}).required();
export const lastPrices = Joi.object({
  last_executed_prices: Joi.object()
    .pattern(Joi.string(), Joi.array().items(Joi.object({ contract_id: id.required(), last_executed_price: venueValue.numeric().allow(null) })))
    .required(),
}).required();
const level = Joi.object({ price: basisPoints.required(), quantity: quantity.required() });
export const quotes = Joi.object()
  .pattern(Joi.string(), Joi.object({ bids: Joi.array().items(level).required(), offers: Joi.array().items(level).required() }))
  .required();
export const session = Joi.object({ token: Joi.string().min(1).required(), stop: venueValue.time().required() }).required();
export const account = Joi.object({
  account: Joi.object({
    currency: Joi.string().required(),
    balance: venueValue.numeric().required(),
    available_balance: venueValue.numeric().required(),
  }).required(),
}).required();
const order = Joi.object({
  id: id.required(),
  market_id: id.required(),
  contract_id: id.required(),
  side: Joi.string().valid('buy', 'sell').required(),
  type: optional,
  state: Joi.string().required(),
  price: basisPoints.required(),
  quantity: quantity.required(),
  quantity_filled: quantity.required(),
  quantity_unfilled: quantity.required(),
  average_price_matched: basisPoints.allow(null),
  created_datetime: venueValue.time().required(),
});
/** Orders are checked one by one: an unreadable one is left out as drift (named by its id), never the list. */
export const orders = Joi.object({ orders: venueValue.items(order, { id: 'id' }).required() }).required();
/** Only the fills' members are required; rows are checked one by one like orders. */
export const activity = Joi.object({
  account_activity: venueValue
    .items(
      Joi.object({
        seq: Joi.number().integer().min(0).required(),
        subseq: Joi.number().integer().min(0).required(),
        source: Joi.string().required(),
        timestamp: venueValue.time().required(),
        order_id: id.required(),
        market_id: id.required(),
        contract_id: id.required(),
        side: Joi.string().valid('buy', 'sell').required(),
        price: basisPoints.required(),
        quantity: quantity.allow(null),
        quantity_change: Joi.number().integer().allow(null),
        commission: venueValue.numeric().allow(null),
      }),
      { id: 'seq' },
    )
    .required(),
}).required();
export const placement = Joi.object({
  order_id: id.required(),
  market_id: id.required(),
  contract_id: id.required(),
  side: Joi.string().valid('buy', 'sell').required(),
  price: basisPoints.required(),
  quantity: quantity.required(),
  available_quantity: quantity.required(),
  total_executed_quantity: quantity.required(),
  executed_avg_price: basisPoints.allow(null),
}).required();
