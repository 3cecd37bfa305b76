import { constants, createPrivateKey, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { PredgateError, requireCredentials } from '@predgate/core';
import type { Credentials } from '@predgate/core';

/**
 * Kalshi's request signing: RSA-PSS with SHA-256 (MGF1-SHA-256, salt as long
 * as the digest) over `timestamp + METHOD + path`, where the timestamp is in
 * milliseconds and the path starts at `/trade-api/v2` without the query
 * string. The body and the host are not signed.
 */

export const credentialMembers = ['apiKey', 'privateKey'] as const;

export interface KalshiSigner {
  /** The three authentication headers of one request. */
  headers(method: string, path: string, timestampMs: number): Record<string, string>;
}

/** The exact text that is signed. */
export function signingMessage(timestampMs: number, method: string, path: string): string {
  return `${timestampMs}${method.toUpperCase()}${path}`;
}

/**
 * The path Kalshi expects in the signature: from `/trade-api/` on, so an
 * operator's proxy prefix in front of the API root does not enter it.
 */
export function signedPath(url: string): string {
  const { pathname } = new URL(url);
  const root = pathname.indexOf('/trade-api/');
  return root === -1 ? pathname : pathname.slice(root);
}

/**
 * A signer for the caller's credentials: AUTHENTICATION_ERROR naming the
 * missing members when `apiKey` (the key id) or `privateKey` is absent, and
 * when the private key cannot be read. Never echoes a credential.
 */
export function createSigner(credentials: Credentials | undefined, venue: string): KalshiSigner {
  const { apiKey, privateKey } = requireCredentials(credentials, credentialMembers, venue) as { apiKey: string; privateKey: string };
  const key = readPrivateKey(privateKey, venue);
  return {
    headers(method, path, timestampMs) {
      const signature = sign('sha256', Buffer.from(signingMessage(timestampMs, method, path), 'utf8'), {
        key,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
      });
      return {
        'KALSHI-ACCESS-KEY': apiKey,
        'KALSHI-ACCESS-SIGNATURE': signature.toString('base64'),
        'KALSHI-ACCESS-TIMESTAMP': String(timestampMs),
      };
    },
  };
}

function readPrivateKey(pem: string, venue: string): KeyObject {
  // Keys kept in environment variables or JSON often arrive on one line with literal "\n".
  const text = pem.includes('\\n') ? pem.replace(/(?:\\r)?\\n/g, '\n') : pem;
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey(text.trim());
  } catch {
    // The library's message is dropped on purpose: nothing about the key may reach a client.
  }
  if (key?.asymmetricKeyType !== 'rsa' && key?.asymmetricKeyType !== 'rsa-pss') {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venue}: credentials.privateKey is not an RSA private key in PEM form`, {
      exchange: venue,
      detail: { member: 'privateKey' },
    });
  }
  return key;
}
