import type { Request } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { CallInput, MethodRegistry, RoutedMethod } from '@predgate/core';

/** The method a pass-through path names; NOT_FOUND when the core list has none by that name. */
export function routedMethod(methods: MethodRegistry, name: string): RoutedMethod {
  const routed = methods.get(name);
  if (!routed) throw new PredgateError('NOT_FOUND', `Unknown method "${name}"`, { detail: { method: name } });
  return routed;
}

/** A call's arguments from its query string (GET) or body (POST); a method GET cannot express is 405. */
export function readCall(request: Request, routed: RoutedMethod, venue: string): CallInput {
  if (request.method === 'get') {
    if (!routed.allowsGet) {
      throw new PredgateError('BAD_REQUEST', `${routed.name} cannot be called with GET: POST /api/${venue}/${routed.name} with {"args": [...]}`, {
        status: 405,
        detail: { allow: 'POST' },
      });
    }
    return routed.fromQuery(request.query as Record<string, string | string[]>);
  }
  return routed.fromBody(request.payload ?? {});
}
