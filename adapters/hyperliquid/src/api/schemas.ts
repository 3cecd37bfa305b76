import { venueValue } from '@predgate/core';
import Joi from 'joi';

/** Hyperliquid's answers: the raw shapes the adapter reads, and one schema per query naming only those members. */

export interface RawOutcome {
  outcome: number;
  name: string;
  description: string;
  sideSpecs: Array<{ name: string }>;
  quoteToken?: string | null;
}

export interface RawQuestion {
  question: number;
  name: string;
  description: string;
  fallbackOutcome?: number | null;
  namedOutcomes: number[];
  settledNamedOutcomes?: number[] | null;
}

/** `settledOutcome`: how an outcome settled (`settleFraction`: what side 0 paid, "1.0" or "0.0", 0.5 when voided), `null` while it has not. */
export interface RawSettlement {
  spec: RawOutcome;
  settleFraction: string;
  details?: string | null;
}

export interface OutcomeMeta {
  outcomes: RawOutcome[];
  questions: RawQuestion[];
}

export interface RawLevel {
  px: string;
  sz: string;
  n?: number;
}

export interface RawBook {
  coin: string;
  time: number;
  levels: [RawLevel[], RawLevel[]];
}

export interface RawTrade {
  coin: string;
  side: 'B' | 'A';
  px: string;
  sz: string;
  time: number;
  tid: number | string;
}

export interface RawCandle {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

export interface RawSpotBalance {
  coin: string;
  total: string;
  hold: string;
  entryNtl?: string | null;
}

export interface RawOpenOrder {
  coin: string;
  limitPx: string;
  oid: number;
  side: 'B' | 'A';
  sz: string;
  origSz?: string | null;
  timestamp: number;
}

export interface RawFill {
  coin: string;
  px: string;
  sz: string;
  side: 'B' | 'A';
  time: number;
  oid: number;
  tid: number | string;
  fee?: string | null;
}

/**
 * An order as `frontendOpenOrders`, `historicalOrders` and `orderStatus`
 * describe it: `sz` is what remains, `origSz` what was asked.
 */
export interface RawVenueOrder {
  coin: string;
  side: 'B' | 'A';
  limitPx: string;
  sz: string;
  oid: number;
  timestamp: number;
  origSz?: string | null;
  orderType?: string | null;
  tif?: string | null;
  reduceOnly?: boolean | null;
}

/** An order with its latest status (`open`, `filled`, `canceled`, `…Canceled`, `…Rejected`, `triggered`) and when it took it. */
export interface RawOrderWithStatus {
  order: RawVenueOrder;
  status: string;
  statusTimestamp: number;
}

/** `orderStatus`: the order, or `{"status":"unknownOid"}` when the account has none by that id. */
export type RawOrderStatus = { status: 'order'; order: RawOrderWithStatus } | { status: 'unknownOid' };

/** `{"status":"ok","response":{"type":...,"data":{"statuses":[...]}}}`, or `{"status":"err","response":"<text>"}`. */
export type ExchangeAnswer = { status: 'ok'; response: { type: string; data?: { statuses: unknown[] } } } | { status: 'err'; response: string };
const decimal = venueValue.numeric();
const whole = Joi.number().integer().min(0);

const outcome = Joi.object({
  outcome: whole.required(),
  name: Joi.string().allow('').required(),
  description: Joi.string().allow('').required(),
  sideSpecs: Joi.array()
    .items(Joi.object({ name: Joi.string().allow('').required() }))
    .min(2)
    .max(2)
    .required(),
  quoteToken: Joi.string().allow('', null),
});

export const settlement = Joi.object({
  spec: outcome.required(),
  settleFraction: decimal.required(),
  details: Joi.string().allow('', null),
})
  .allow(null)
  .required();

export const outcomeMeta = Joi.object({
  // One unreadable outcome or question is left out as drift (named by its number), never the whole catalog.
  outcomes: venueValue.items(outcome, { id: 'outcome' }).required(),
  questions: venueValue
    .items(
      Joi.object({
        question: whole.required(),
        name: Joi.string().allow('').required(),
        description: Joi.string().allow('').required(),
        fallbackOutcome: whole.allow(null),
        namedOutcomes: Joi.array().items(whole).required(),
        settledNamedOutcomes: Joi.array().items(whole).allow(null),
      }),
      { id: 'question' },
    )
    .required(),
}).required();

export const mids = Joi.object().pattern(Joi.string(), decimal).required();
const level = Joi.object({ px: decimal.required(), sz: decimal.required(), n: whole });
export const book = Joi.object({
  coin: Joi.string().required(),
  time: whole.required(),
  levels: Joi.array().ordered(Joi.array().items(level).required(), Joi.array().items(level).required()).length(2).required(),
}).required();
const side = Joi.string().valid('B', 'A');
/** One unreadable trade is left out as drift (named by its id), never the tape. */
export const trades = venueValue
  .items(
    Joi.object({
      coin: Joi.string().required(),
      side: side.required(),
      px: decimal.required(),
      sz: decimal.required(),
      time: whole.required(),
      tid: venueValue.id().required(),
    }),
    { id: 'tid' },
  )
  .required();
/** One unreadable candle is left out as drift (named by its open time), never the series. */
export const candles = venueValue
  .items(
    Joi.object({ t: whole.required(), o: decimal.required(), h: decimal.required(), l: decimal.required(), c: decimal.required(), v: decimal.required() }),
    {
      id: 't',
    },
  )
  .required();
export const spotState = Joi.object({
  // One unreadable balance is left out as drift (named by its coin), never the account.
  balances: venueValue
    .items(Joi.object({ coin: Joi.string().required(), total: decimal.required(), hold: decimal.required(), entryNtl: decimal.allow(null) }), { id: 'coin' })
    .required(),
}).required();
/** One unreadable order is left out as drift (named by its oid), never the list. */
export const openOrders = venueValue
  .items(
    Joi.object({
      coin: Joi.string().required(),
      limitPx: decimal.required(),
      oid: whole.required(),
      side: side.required(),
      sz: decimal.required(),
      origSz: decimal.allow(null),
      timestamp: whole.required(),
    }),
    { id: 'oid' },
  )
  .required();
/** One unreadable fill is left out as drift (named by its trade id), never the account's fills. */
export const fills = venueValue
  .items(
    Joi.object({
      coin: Joi.string().required(),
      px: decimal.required(),
      sz: decimal.required(),
      side: side.required(),
      time: whole.required(),
      oid: whole.required(),
      tid: venueValue.id().required(),
      fee: decimal.allow(null),
    }),
    { id: 'tid' },
  )
  .required();
export const exchangeAnswer = Joi.alternatives(
  Joi.object({
    status: Joi.string().valid('ok').required(),
    response: Joi.object({ type: Joi.string().required(), data: Joi.object({ statuses: Joi.array().required() }) }).required(),
  }),
  Joi.object({ status: Joi.string().valid('err').required(), response: Joi.string().allow('').required() }),
).required();

const venueOrder = Joi.object({
  coin: Joi.string().required(),
  side: side.required(),
  limitPx: decimal.required(),
  sz: decimal.required(),
  oid: whole.required(),
  timestamp: whole.required(),
  origSz: decimal.allow(null),
  orderType: Joi.string().allow('', null),
  tif: Joi.string().allow('', null),
  reduceOnly: Joi.boolean().allow(null),
});
/** The status words the venue documents: a word it adds later makes that one order drift, not the list. */
export const orderStatusWord = /^(open|filled|triggered|canceled|rejected|scheduledCancel|[a-z][A-Za-z]*(Canceled|Rejected))$/;
const orderWithStatus = Joi.object({
  order: venueOrder.required(),
  status: Joi.string().pattern(orderStatusWord).required(),
  statusTimestamp: whole.required(),
});
/** One unreadable order is left out as drift (named by its oid), never the account's list. */
export const frontendOpenOrders = venueValue.items(venueOrder, { id: 'oid' }).required();
export const historicalOrders = venueValue.items(orderWithStatus, { id: 'order.oid' }).required();
export const orderStatus = Joi.alternatives(
  Joi.object({ status: Joi.string().valid('order').required(), order: orderWithStatus.required() }),
  Joi.object({ status: Joi.string().invalid('order').required() }),
).required();
