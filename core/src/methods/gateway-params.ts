import { PredgateError } from '../errors.js';
import type { MethodDeclaration } from './declaration.js';

/**
 * Parameters whose answer does not depend on the venue, answered once by the
 * gateway for every venue so no adapter sees them:
 * - `sourceExchange` (or `exchange`) on the catalog calls: the venue's own id
 *   is dropped; another venue's gives an empty list, or the method's
 *   not-found error for a single lookup, whether the catalog or the venue
 *   would have answered.
 * - `since`/`until` on a method declared `archive: true`: answered from the
 *   archive where it holds the venue, else one uniform NOT_SUPPORTED.
 */
export type ScopedCall = { kind: 'call'; args: unknown[] } | { kind: 'answer'; data: unknown };

/** Where the call's named parameters are (its `params` argument), if it has any. */
function paramsOf(declaration: MethodDeclaration, args: readonly unknown[]): { index: number; params: Record<string, unknown> } | undefined {
  const index = declaration.args.findIndex((declared) => declared.kind === 'params');
  const params = index === -1 ? undefined : (args[index] as Record<string, unknown> | undefined);
  return params ? { index, params } : undefined;
}

/** Whether a call asks for history (`since` or `until` on a method declared `archive: true`): only the archive answers it. */
export function asksArchive(declaration: MethodDeclaration, args: readonly unknown[]): boolean {
  const params = declaration.archive ? paramsOf(declaration, args)?.params : undefined;
  return params !== undefined && (params.since !== undefined || params.until !== undefined);
}

/** The refusal of a history call for a venue the archive does not hold, the same for every venue. */
export function notArchived(name: string, venue: string, archivedVenues: readonly string[]): PredgateError {
  return new PredgateError(
    'NOT_SUPPORTED',
    `${name} with since/until reads historical books from the archive, which holds ${archivedVenues.length > 0 ? archivedVenues.join(', ') : 'no venue'}, not ${venue}`,
    { detail: { method: name, parameters: ['since', 'until'], archivedVenues: [...archivedVenues] } },
  );
}

/** Whether a call names a `sourceExchange` that scopes a catalog method to one venue. */
export function namesSourceExchange(declaration: MethodDeclaration, args: readonly unknown[]): boolean {
  return declaration.catalog && paramsOf(declaration, args)?.params.sourceExchange !== undefined;
}

/**
 * A catalog call scoped to `venue`: another venue's `sourceExchange` is
 * answered here (nothing), the venue's own is dropped from the arguments.
 */
export function scopeToVenue(name: string, declaration: MethodDeclaration, args: readonly unknown[], venue: string): ScopedCall {
  const found = paramsOf(declaration, args);
  if (!found || found.params.sourceExchange === undefined) return { kind: 'call', args: [...args] };
  const { sourceExchange, ...rest } = found.params;
  if (String(sourceExchange).toLowerCase() !== venue) {
    if (declaration.result.schema.type === 'array') return { kind: 'answer', data: [] };
    throw new PredgateError(declaration.notFound ?? 'NOT_FOUND', `${venue} holds nothing of ${String(sourceExchange)}`, {
      detail: { sourceExchange },
    });
  }
  const scoped = [...args];
  scoped[found.index] = rest;
  return { kind: 'call', args: scoped };
}
