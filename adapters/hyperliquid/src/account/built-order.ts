import { isDeepStrictEqual } from 'node:util';
import { PredgateError, invalidArgument } from '@predgate/core';
import type { BuiltOrder } from '@predgate/core';
import Joi from 'joi';
import type { Signature } from '../auth/signer.js';
import { venueId } from '../venue.js';
import { orderAction } from './order-action.js';
import type { OrderAction } from './order-action.js';

/** The body of `POST /exchange` for one order: what buildOrder hands back in `raw` and submitOrder sends. */
export interface OrderRequestBody {
  action: OrderAction;
  nonce: number;
  signature: Signature;
}

/** The venue takes a nonce within a day of its block time (docs: "Nonces and API wallets"). */
export const nonceLifetimeMs = 86_400_000;

const hex32 = Joi.string().pattern(/^0x[0-9a-f]{64}$/);
const bodySchema = Joi.object<OrderRequestBody, true>({
  action: Joi.object().required(),
  nonce: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
  signature: Joi.object({ r: hex32.required(), s: hex32.required(), v: Joi.number().valid(27, 28).required() }).required(),
});

/**
 * A built order's body, checked before it is sent: its action must be
 * exactly the one its `params` make (so the order answered is the order
 * placed), its nonce still inside the venue's window and any expiry the
 * caller set not passed; otherwise it is refused unsent.
 */
export function builtBody(built: BuiltOrder, now: number): OrderRequestBody {
  const { error, value } = bodySchema.validate(built.raw, { presence: 'optional', abortEarly: true, convert: false, allowUnknown: false });
  if (error) {
    const detail = error.details[0]!;
    throw invalidArgument(`built.raw.${detail.path.join('.')}`, `the built order is not one buildOrder makes on ${venueId}: ${detail.message}`);
  }
  const action = orderAction(built.params, 'submitOrder');
  if (!isDeepStrictEqual(value.action, action)) {
    throw invalidArgument('built.raw.action', `the built order's action is not the one its params make on ${venueId}: it was changed after buildOrder`);
  }
  const deadline = Math.min(value.nonce + nonceLifetimeMs, built.expiry?.getTime() ?? Infinity);
  if (now > deadline) {
    throw new PredgateError(
      'BUILT_ORDER_EXPIRED',
      `The built order can no longer be placed (its deadline ${new Date(deadline).toISOString()} has passed): it was not sent`,
      {
        exchange: venueId,
        detail: { nonce: value.nonce, deadline: new Date(deadline).toISOString() },
      },
    );
  }
  // The action made here, not the one received: its members are in the order the signature covers.
  return { action, nonce: value.nonce, signature: value.signature };
}
