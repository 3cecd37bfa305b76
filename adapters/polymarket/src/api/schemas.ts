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
  markets: Joi.array().items(gammaMarket).allow(null),
});

export const gammaEvents = Joi.array().items(gammaEvent).required();
export const gammaMarkets = Joi.array().items(gammaMarket).required();
/** `next_cursor` is absent (or empty) on the last page. */
export const gammaEventsKeyset = Joi.object({
  events: Joi.array().items(gammaEvent).required(),
  next_cursor: Joi.string().max(4096).allow('', null),
}).required();
export const gammaSearch = Joi.object({ events: Joi.array().items(gammaEvent).allow(null) }).required();
const gammaSeries = Joi.object({ id: venueValue.id().required(), events: Joi.array().items(gammaEvent).allow(null) });
export const gammaSeriesList = Joi.array().items(gammaSeries).required();
export const gammaSeriesOne = gammaSeries.required();

const level = Joi.object({ price: amount.required(), size: amount.required() });

export const clobBook = Joi.object({
  asset_id: venueValue.id(),
  bids: Joi.array().items(level).allow(null).required(),
  asks: Joi.array().items(level).allow(null).required(),
  timestamp: venueValue.time().allow(null, ''),
}).required();
export const clobBooks = Joi.array().items(clobBook).required();
export const priceHistory = Joi.object({
  history: Joi.array()
    .items(Joi.object({ t: venueValue.time().required(), p: numeric.required() }))
    .required(),
}).required();
const dataTrade = Joi.object({ price: numeric.required(), size: numeric.required(), timestamp: venueValue.time().required() });
export const dataTrades = Joi.alternatives(Joi.array().items(dataTrade), Joi.object({ data: Joi.array().items(dataTrade).required() })).required();
export const dataPositions = Joi.array().required();

export const clobBalance = Joi.object({ balance: numeric.required() }).required();
export const clobPage = Joi.object({ data: Joi.array().items(Joi.object()).allow(null), next_cursor: Joi.string().allow('', null) }).required();
/** An unknown order id answers `null` or an object without an id. */
export const clobOrder = Joi.object({ id: Joi.string().allow('') }).allow(null);
export const clobPlacement = Joi.object({ success: Joi.boolean(), orderID: Joi.string().allow(''), errorMsg: Joi.string().allow('') }).required();
export const clobCancel = Joi.object({ canceled: Joi.array().items(Joi.string()).allow(null), not_canceled: Joi.object().allow(null) }).required();
