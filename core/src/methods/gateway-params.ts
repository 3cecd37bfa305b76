import { PredgateError } from '../errors.js';
import type { MethodDeclaration } from './declaration.js';

/**
 * Parameters whose answer does not depend on the venue, answered once by the
 * gateway for every venue so no adapter sees them:
 * - `sourceExchange` (or `exchange`) on the catalog calls: the venue's own id
 *   is dropped; another venue's gives an empty list, or not found for a
 *   single lookup, whether the catalog or the venue would have answered.
 * - `since`/`until` on a method declared `archive: true`: answered from the
 *   archive where it holds the venue, else one uniform NOT_SUPPORTED.
 */
export type GatewayParamsOutcome = { kind: 'call'; args: unknown[] } | { kind: 'answer'; data: unknown } | { kind: 'archive'; args: unknown[] };

export function applyGatewayParams(
  name: string,
  declaration: MethodDeclaration,
  args: readonly unknown[],
  venue: string,
  archivedVenues: readonly string[],
): GatewayParamsOutcome {
  const index = declaration.args.findIndex((declared) => declared.kind === 'params');
  const params = index === -1 ? undefined : (args[index] as Record<string, unknown> | undefined);
  if (!params) return { kind: 'call', args: [...args] };

  if (declaration.archive && (params.since !== undefined || params.until !== undefined)) {
    if (archivedVenues.includes(venue)) return { kind: 'archive', args: [...args] };
    throw new PredgateError(
      'NOT_SUPPORTED',
      `${name} with since/until reads historical books from the archive, which holds ${archivedVenues.length > 0 ? archivedVenues.join(', ') : 'no venue'}, not ${venue}`,
      {
        detail: { method: name, parameters: ['since', 'until'], archivedVenues: [...archivedVenues] },
      },
    );
  }

  if (declaration.catalog && params.sourceExchange !== undefined) {
    if (String(params.sourceExchange).toLowerCase() !== venue) {
      if (declaration.result.schema.type === 'array') return { kind: 'answer', data: [] };
      const single = name.includes('Market') ? 'MARKET_NOT_FOUND' : 'EVENT_NOT_FOUND';
      throw new PredgateError(single, `${venue} holds nothing of ${String(params.sourceExchange)}`, { detail: { sourceExchange: params.sourceExchange } });
    }
    const { sourceExchange: _own, ...rest } = params;
    const scoped = [...args];
    scoped[index] = rest;
    return { kind: 'call', args: scoped };
  }
  return { kind: 'call', args: [...args] };
}
