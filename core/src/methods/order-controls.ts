import { PredgateError } from '../errors.js';
import { orderControls } from '../model/index.js';
import type { BuiltOrder, CreateOrderParams, OrderControl } from '../model/index.js';

/** The order parameters of an order method's validated arguments, or undefined for other methods. */
function orderParamsOf(method: string, args: readonly unknown[]): CreateOrderParams | undefined {
  if (method === 'createOrder' || method === 'buildOrder') return args[0] as CreateOrderParams;
  if (method === 'submitOrder') return (args[0] as BuiltOrder).params;
  return undefined;
}

/**
 * Refuses an order that uses a pmxt order control its venue does not honour
 * (the venue profile's `orderControls`), naming the venue and the control, so
 * an order is never placed with one of its conditions silently dropped.
 */
export function refuseUnhonouredOrderControls(venue: string, honoured: readonly OrderControl[] | undefined, method: string, args: readonly unknown[]): void {
  const params = orderParamsOf(method, args);
  if (!params) return;
  const used = orderControls.filter((control) => params[control] !== undefined);
  const refused = used.filter((control) => !honoured?.includes(control));
  if (refused.length === 0) return;
  throw new PredgateError('VALIDATION_ERROR', `${method}: ${venue} does not honour ${refused.join(', ')}`, {
    exchange: venue,
    detail: { method, unsupported: refused, honoured: honoured ?? [] },
  });
}
