import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * The shapes the adapter reads from Gamma, checked before normalising: only
 * the members it reads, each in the forms Gamma is known to send (numbers as
 * strings, lists as JSON text, nulls on closed markets). Unknown members pass.
 */

const numeric = venueValue.numeric().allow(null, '');
const amount = venueValue.amount().allow(null, '');
const list = venueValue.jsonList().allow(null);

export const gammaMarket = Joi.object({
  id: venueValue.id().required(),
  question: Joi.string().allow('', null),
  slug: Joi.string().allow('', null),
  outcomes: list,
  outcomePrices: list,
  clobTokenIds: list,
  positionIds: Joi.array().items(venueValue.id()).allow(null),
  volume: amount,
  volume24hr: amount,
  liquidity: amount,
  active: Joi.boolean().allow(null),
  closed: Joi.boolean().allow(null),
});

export const gammaEvent = Joi.object({
  id: venueValue.id().required(),
  title: Joi.string().allow('', null),
  slug: Joi.string().allow('', null),
  volume: amount,
  volume24hr: amount,
  markets: venueValue.items(gammaMarket, { id: 'id' }).allow(null),
});

/** Lists are checked item by item: one unreadable event, market, book or trade is left out as drift, never the page. */
const events = venueValue.items(gammaEvent, { id: 'id' });

export const gammaEvents = events.required();
export const gammaMarkets = venueValue.items(gammaMarket, { id: 'id' }).required();
/** `next_cursor` is absent (or empty) on the last page. */
export const gammaEventsKeyset = Joi.object({
  events: events.required(),
  next_cursor: Joi.string().max(4096).allow('', null),
}).required();
export const gammaSearch = Joi.object({ events: events.allow(null) }).required();
const gammaSeries = Joi.object({ id: venueValue.id().required(), events: events.allow(null) });
export const gammaSeriesList = venueValue.items(gammaSeries, { id: 'id' }).required();
export const gammaSeriesOne = gammaSeries.required();

const level = Joi.object({ price: amount.required(), size: amount.required() });

const book = Joi.object({
  asset_id: venueValue.id(),
  bids: Joi.array().items(level).allow(null).required(),
  asks: Joi.array().items(level).allow(null).required(),
  timestamp: venueValue.time().allow(null, ''),
});
export const clobBook = book.required();
/** One token's unreadable book never costs the books of the others. */
export const clobBooks = venueValue.items(book, { id: 'asset_id' }).required();
export const priceHistory = Joi.object({
  history: Joi.array()
    .items(Joi.object({ t: venueValue.time().required(), p: numeric.required() }))
    .required(),
}).required();
const dataTrade = Joi.object({ price: numeric.required(), size: numeric.required(), timestamp: venueValue.time().required() });
const trades = venueValue.items(dataTrade, { id: 'transactionHash' });
export const dataTrades = Joi.alternatives(trades, Joi.object({ data: trades.required() })).required();
export const dataPositions = Joi.array().required();

export const clobBalance = Joi.object({ balance: numeric.required() }).required();
export const clobPage = Joi.object({ data: Joi.array().items(Joi.object()).allow(null), next_cursor: Joi.string().allow('', null) }).required();
/** An unknown order id answers `null` or an object without an id. */
export const clobOrder = Joi.object({ id: Joi.string().allow('') }).allow(null);
export const clobPlacement = Joi.object({ success: Joi.boolean(), orderID: Joi.string().allow(''), errorMsg: Joi.string().allow('') }).required();
export const clobCancel = Joi.object({ canceled: Joi.array().items(Joi.string()).allow(null), not_canceled: Joi.object().allow(null) }).required();
