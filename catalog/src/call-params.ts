import { catalogMethodNames, catalogParamNames } from '@predgate/core';
import type { CatalogMethodName, StatusFilter } from '@predgate/core';
import type { CatalogStatus } from './store.js';

/** The venue methods the catalog answers, for one venue (pass-through) or all of them (the Router): the method list's `catalog: true`. */
export type CatalogMethod = CatalogMethodName;

export function isCatalogMethod(method: string): method is CatalogMethod {
  return (catalogMethodNames as readonly string[]).includes(method);
}

/** The call parameters the catalog can search by: those the fetch schemas mark. */
export const catalogParams: ReadonlySet<string> = catalogParamNames;

export function statusOf(status: StatusFilter | undefined): CatalogStatus {
  if (status === 'all') return 'all';
  return status === 'closed' || status === 'inactive' ? 'closed' : 'active';
}

/** The status to search: lookups by id or slug find closed events and markets too, as the adapters' fetchEvent/fetchMarket do. */
export function lookupStatus(params: { status?: StatusFilter }, key: string | undefined): CatalogStatus {
  return params.status === undefined && key !== undefined ? 'all' : statusOf(params.status);
}
