import { createHmac } from 'node:crypto';

/** The CLOB API key triple, as the venue issues it. */
export interface ApiCredentials {
  apiKey: string;
  /** base64url; the HMAC key once decoded. */
  secret: string;
  passphrase: string;
}

/**
 * `base64url(HMAC-SHA256(secret, timestamp + METHOD + path + body))`, padding
 * kept. `path` has no query string; `body` is the exact text sent, if any.
 */
export function l2Signature(secret: string, timestamp: number, method: string, path: string, body?: string): string {
  // Buffer's base64 decoder reads the url-safe alphabet too.
  const digest = createHmac('sha256', Buffer.from(secret, 'base64'))
    .update(`${timestamp}${method}${path}${body ?? ''}`)
    .digest('base64');
  return digest.replace(/\+/g, '-').replace(/\//g, '_');
}

/** L2 headers, sent on every authenticated CLOB call. `address` is the signing key's address. */
export function l2Headers(
  credentials: ApiCredentials,
  address: string,
  request: { timestamp: number; method: string; path: string; body?: string },
): Record<string, string> {
  return {
    POLY_ADDRESS: address,
    POLY_SIGNATURE: l2Signature(credentials.secret, request.timestamp, request.method, request.path, request.body),
    POLY_TIMESTAMP: String(request.timestamp),
    POLY_API_KEY: credentials.apiKey,
    POLY_PASSPHRASE: credentials.passphrase,
  };
}
