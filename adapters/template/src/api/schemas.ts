import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * The venue's raw shapes, one schema per endpoint, describing only the fields
 * the adapter reads: a venue that drops or retypes one of them fails the call
 * with an error naming the field instead of feeding the normaliser garbage.
 */

export interface RawOutcome {
  id: string;
  name: string;
  price: number | string | null;
}

export interface RawMarket {
  id: string;
  question: string;
  status: 'open' | 'closed' | 'resolved';
  volume_24h?: number | string | null;
  outcomes: RawOutcome[];
}

export interface RawEvent {
  id: string;
  slug: string;
  title: string;
  category?: string | null;
  volume_24h?: number | string | null;
  markets: RawMarket[];
}

export interface RawBook {
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
  /** Epoch milliseconds. */
  ts: number;
}

const outcome = Joi.object({ id: venueValue.id().required(), name: Joi.string().allow('').required(), price: venueValue.numeric().allow(null).required() });
const market = Joi.object({
  id: venueValue.id().required(),
  question: Joi.string().allow('').required(),
  status: Joi.string().valid('open', 'closed', 'resolved').required(),
  volume_24h: venueValue.numeric().allow(null),
  outcomes: Joi.array().items(outcome).required(),
});

const event = Joi.object({
  id: venueValue.id().required(),
  slug: Joi.string().required(),
  title: Joi.string().required(),
  category: Joi.string().allow('', null),
  volume_24h: venueValue.numeric().allow(null),
  markets: Joi.array().items(market).required(),
});

/**
 * A list is checked item by item (`venueValue.items`): one event the adapter
 * cannot read is left out and reported as drift with its id and field, and
 * the rest of the page is served. Only an unreadable envelope fails the call.
 */
export const eventsPage = Joi.object({ events: venueValue.items(event, { id: 'id' }).required() });

const level = Joi.array().ordered(venueValue.numeric().required(), venueValue.numeric().required());
export const book = Joi.object({ bids: Joi.array().items(level).required(), asks: Joi.array().items(level).required(), ts: Joi.number().required() });
