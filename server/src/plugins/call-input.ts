import { PredgateError, unofferedMethods } from '@predgate/core';
import type { CallInput, MethodRegistry, RoutedMethod } from '@predgate/core';

/**
 * The method a pass-through path names. A method pmxt clients call that no
 * venue offers is NOT_SUPPORTED with the reason; any other name the core list
 * lacks is NOT_FOUND.
 */
export function routedMethod(methods: MethodRegistry, name: string, venue: string): RoutedMethod {
  const routed = methods.get(name);
  if (routed) return routed;
  const reason = Object.hasOwn(unofferedMethods, name) ? unofferedMethods[name] : undefined;
  if (reason) throw new PredgateError('NOT_SUPPORTED', `${venue} does not support ${name}: ${reason}`, { exchange: venue, detail: { reason } });
  throw new PredgateError('NOT_FOUND', `Unknown method "${name}"`, { detail: { method: name } });
}

/** How a call's arguments arrived: a GET's query string, or a POST's parsed body. */
export type Arrived = { query: Record<string, string | string[]> } | { body: unknown };

/** A call's arguments from its query string (GET) or body (POST); a method GET cannot express is 405. */
export function readCall(arrived: Arrived, routed: RoutedMethod, venue: string): CallInput {
  if ('query' in arrived) {
    if (!routed.allowsGet) {
      throw new PredgateError('BAD_REQUEST', `${routed.name} cannot be called with GET: POST /api/${venue}/${routed.name} with {"args": [...]}`, {
        status: 405,
        detail: { allow: 'POST' },
      });
    }
    return routed.fromQuery(arrived.query);
  }
  return routed.fromBody(arrived.body ?? {});
}
