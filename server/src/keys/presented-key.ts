import type { IncomingHttpHeaders } from 'node:http';

/** The API key a request's headers present: `Authorization: Bearer <key>`, else `x-api-key`. */
export function headerKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.length > 0) return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const header = headers['x-api-key'];
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}
