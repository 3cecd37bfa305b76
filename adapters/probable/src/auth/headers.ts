import { createHmac } from 'node:crypto';
import type { PrivateKeyAccount } from 'viem';
import { clobAuthMessage, clobAuthTypes } from '@predgate/core';
import { clobAuthDomain } from './contracts.js';

/** The API key triple Probable issues; `secret` is base64 (url-safe or standard), the HMAC key once decoded. */
export interface ApiCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/**
 * L1 headers, which prove control of the wallet key; Probable asks for them
 * only to read or create the API key. `timestamp` is in Unix seconds.
 */
export async function l1Headers(wallet: PrivateKeyAccount, timestamp: number, nonce = 0): Promise<Record<string, string>> {
  const signature = await wallet.signTypedData({
    domain: clobAuthDomain,
    types: clobAuthTypes,
    primaryType: 'ClobAuth',
    message: { address: wallet.address, timestamp: String(timestamp), nonce: BigInt(nonce), message: clobAuthMessage },
  });
  return { prob_address: wallet.address, prob_signature: signature, prob_timestamp: String(timestamp), prob_nonce: String(nonce) };
}

/**
 * `base64url(HMAC-SHA256(base64decode(secret), timestamp + METHOD + requestPath + body))`,
 * padding kept. `requestPath` is the URL path with its query string, as sent;
 * `body` the exact text sent, if any.
 */
export function l2Signature(secret: string, timestamp: number, method: string, requestPath: string, body?: string): string {
  // Buffer's base64 decoder reads the url-safe alphabet too.
  const digest = createHmac('sha256', Buffer.from(secret, 'base64'))
    .update(`${timestamp}${method}${requestPath}${body ?? ''}`)
    .digest('base64');
  return digest.replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * L2 headers, on every private call. `address` is the signing key's address;
 * `prob_account_type: eoa` tells the venue the key's own wallet trades (the
 * SDK sends it for EOA accounts only).
 */
export function l2Headers(
  credentials: ApiCredentials,
  address: string,
  request: { timestamp: number; method: string; requestPath: string; body?: string; eoa: boolean },
): Record<string, string> {
  return {
    prob_address: address,
    prob_signature: l2Signature(credentials.secret, request.timestamp, request.method, request.requestPath, request.body),
    prob_timestamp: String(request.timestamp),
    prob_api_key: credentials.apiKey,
    prob_passphrase: credentials.passphrase,
    ...(request.eoa ? { prob_account_type: 'eoa' } : {}),
  };
}
