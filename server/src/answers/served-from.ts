import type { ResponseObject } from '@hapi/hapi';
import type { ServedFrom } from '@predgate/core';

/** Where an answer's data came from: `catalog`, `live` or `archive`. */
export const servedFromHeader = 'predgate-served-from';
/** How old the answer's data is, in whole seconds (the age of the sweep or of the archived book; 0 for live data). */
export const dataAgeHeader = 'predgate-data-age';

/** The headers saying where an answer came from and how old its data is, at `now`. */
export function servedFromHeaders(servedFrom: ServedFrom, asOf: number | undefined, now: number): Record<string, string> {
  const age = asOf === undefined ? 0 : Math.max(0, Math.floor((now - asOf) / 1000));
  return { [servedFromHeader]: servedFrom, [dataAgeHeader]: String(age) };
}

export function withHeaders(response: ResponseObject, headers: Record<string, string>): ResponseObject {
  for (const [name, value] of Object.entries(headers)) response.header(name, value);
  return response;
}
