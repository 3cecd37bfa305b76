import { checkPayload, eventSchema, marketSchema, venueValue } from '@predgate/core';
import Joi from 'joi';
import { venueId } from '../venue.js';

/*
 * The simulation's answers are read as a real venue's are: a list item by
 * item (`venueValue.items`), so an item that breaks the unified model is left
 * out and counted as drift with its id and field while the rest is served; a
 * lookup whole, so that one item answers the error naming its field. The
 * conformance suite, which runs against this venue, goes through that path.
 */

const shapes = {
  events: { whole: Joi.array().items(eventSchema), byItem: venueValue.items(eventSchema, { id: 'id' }) },
  markets: { whole: Joi.array().items(marketSchema), byItem: venueValue.items(marketSchema, { id: 'marketId' }) },
};

/**
 * Items that passed once. A day's catalog never changes, so each generated
 * item is checked on its first page only (a full check of 2,000 events costs
 * a quarter of a second); an item that does not fit is checked, and reported,
 * on every call.
 */
const fitting = new WeakSet<object>();

/** A page of the simulated catalog as served: a lookup (one event or market named) is checked whole, a list item by item. */
export function served<T extends object>(kind: keyof typeof shapes, items: T[], lookup: boolean): T[] {
  if (items.every((item) => fitting.has(item))) return items;
  const shape = shapes[kind];
  const source = { venue: venueId, endpoint: `simulated ${kind}` };
  let checked: T[];
  if (lookup) checked = checkPayload<T[]>(shape.whole as Joi.Schema, items, source);
  else {
    // A page that fits passes the whole page's compiled check and is served as generated; only a page holding an
    // item that does not fit is read item by item.
    try {
      checked = checkPayload<T[]>(shape.whole as Joi.Schema, items, source);
    } catch {
      checked = checkPayload<T[]>(shape.byItem, items, source);
    }
  }
  for (const item of checked) fitting.add(item);
  return checked;
}
