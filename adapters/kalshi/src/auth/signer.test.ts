import { constants, createPublicKey, verify } from 'node:crypto';
import { createHttpClientFactory, fixedClock } from '@predgate/core';
import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { testKeyId, testPrivateKey } from '../../test/support/test-key.js';
import { KalshiApi } from '../api/client.js';
import { configSchemaFor } from '../config.js';
import { kalshiDemoVenue, kalshiVenue } from '../config.js';
import { createSigner, signedPath, signingMessage } from './signer.js';

// The expected messages below are written out by hand, and signatures are
// checked with node:crypto directly: RSA-PSS is randomised, so the vector is
// "this exact text, signed with this key, verifies with PSS/SHA-256/salt 32".
const publicKey = createPublicKey(testPrivateKey);
const credentials = { apiKey: testKeyId, privateKey: testPrivateKey };

function verifies(message: string, signatureBase64: string, saltLength = 32): boolean {
  return verify(
    'sha256',
    Buffer.from(message, 'utf8'),
    { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength },
    Buffer.from(signatureBase64, 'base64'),
  );
}

describe('signing', () => {
  test('the signed text is timestamp, upper-case method and path, byte for byte', () => {
    const message = signingMessage(1703123456789, 'get', '/trade-api/v2/portfolio/orders');
    expect(message).toBe('1703123456789GET/trade-api/v2/portfolio/orders');
    expect(Buffer.from(message, 'utf8').toString('hex')).toBe(Buffer.from('1703123456789' + 'GET' + '/trade-api/v2/portfolio/orders', 'ascii').toString('hex'));
  });

  test('headers carry the key id, the millisecond timestamp and an RSA-PSS SHA-256 signature with a 32-byte salt', () => {
    const headers = createSigner(credentials, 'kalshi').headers('GET', '/trade-api/v2/portfolio/balance', 1703123456789);
    expect(headers['KALSHI-ACCESS-KEY']).toBe(testKeyId);
    expect(headers['KALSHI-ACCESS-TIMESTAMP']).toBe('1703123456789');
    const signature = headers['KALSHI-ACCESS-SIGNATURE']!;
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    expect(verifies('1703123456789GET/trade-api/v2/portfolio/balance', signature)).toBe(true);
    // Salt length is part of the scheme: the same signature does not verify with another salt length.
    expect(verifies('1703123456789GET/trade-api/v2/portfolio/balance', signature, 20)).toBe(false);
    expect(verifies('1703123456790GET/trade-api/v2/portfolio/balance', signature)).toBe(false);
  });

  test('each signature is fresh (PSS is randomised) and each verifies', () => {
    const signer = createSigner(credentials, 'kalshi');
    const [a, b] = [1, 2].map(() => signer.headers('DELETE', '/trade-api/v2/portfolio/orders/abc', 1)['KALSHI-ACCESS-SIGNATURE']!);
    expect(a).not.toBe(b);
    expect(verifies('1DELETE/trade-api/v2/portfolio/orders/abc', a!)).toBe(true);
    expect(verifies('1DELETE/trade-api/v2/portfolio/orders/abc', b!)).toBe(true);
  });

  test('a PEM pasted on one line with literal \\n reads as the same key', () => {
    const oneLine = testPrivateKey.trim().split('\n').join('\\n');
    expect(oneLine).not.toContain('\n');
    const headers = createSigner({ apiKey: testKeyId, privateKey: oneLine }, 'kalshi').headers('POST', '/trade-api/v2/portfolio/orders', 42);
    expect(verifies('42POST/trade-api/v2/portfolio/orders', headers['KALSHI-ACCESS-SIGNATURE']!)).toBe(true);
  });

  test('the signed path starts at /trade-api and leaves out the query string and any proxy prefix', () => {
    expect(signedPath('https://external-api.kalshi.com/trade-api/v2/portfolio/orders?status=resting&limit=5')).toBe('/trade-api/v2/portfolio/orders');
    expect(signedPath('https://proxy.example/kalshi/trade-api/v2/portfolio/fills')).toBe('/trade-api/v2/portfolio/fills');
  });
});

describe('credentials', () => {
  test('missing members are an AUTHENTICATION_ERROR naming them, never their values', () => {
    expect(() => createSigner({ apiKey: 'key-id-value' }, 'kalshi')).toThrow(
      expect.objectContaining({ code: 'AUTHENTICATION_ERROR', detail: { required: ['apiKey', 'privateKey'], missing: ['privateKey'] } }),
    );
    expect(() => createSigner(undefined, 'kalshi-demo')).toThrow(expect.objectContaining({ code: 'AUTHENTICATION_ERROR', exchange: 'kalshi-demo' }));
  });

  test('an unreadable private key is an AUTHENTICATION_ERROR that does not echo it', () => {
    const secret = '-----BEGIN PRIVATE KEY-----\nnot-a-key-but-secret-text\n-----END PRIVATE KEY-----';
    let thrown: unknown;
    try {
      createSigner({ apiKey: 'k', privateKey: secret }, 'kalshi');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'AUTHENTICATION_ERROR', detail: { member: 'privateKey' } });
    expect(JSON.stringify(thrown) + String((thrown as Error).message)).not.toContain('secret-text');
  });
});

describe('signed requests', () => {
  async function capture(venue: typeof kalshiVenue, path: string, query: Record<string, string>) {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let seen: Record<string, string> = {};
    agent
      .get(new URL(venue.rest).origin)
      .intercept({ path: () => true, method: 'GET' })
      .reply((options) => {
        seen = options.headers as Record<string, string>;
        return { statusCode: 200, data: '{}' };
      });
    const http = createHttpClientFactory({ dispatcher: agent });
    const config = configSchemaFor(venue).validate({}).value!;
    const api = new KalshiApi({ venue, config, http, clock: fixedClock(1703123456789), credentials });
    await api.account('GET', path, { query });
    await http.close();
    return seen;
  }

  test('a request with a query string signs the path without it, on either host', async () => {
    for (const venue of [kalshiVenue, kalshiDemoVenue]) {
      const headers = await capture(venue, '/portfolio/orders', { status: 'resting' });
      expect(headers['KALSHI-ACCESS-TIMESTAMP']).toBe('1703123456789');
      expect(verifies('1703123456789GET/trade-api/v2/portfolio/orders', headers['KALSHI-ACCESS-SIGNATURE']!)).toBe(true);
    }
  });

  test('without credentials nothing is sent', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const http = createHttpClientFactory({ dispatcher: agent });
    const config = configSchemaFor(kalshiVenue).validate({}).value!;
    const api = new KalshiApi({ venue: kalshiVenue, config, http, clock: fixedClock(0) });
    expect(() => api.account('GET', '/portfolio/balance')).toThrow(expect.objectContaining({ code: 'AUTHENTICATION_ERROR' }));
    await http.close();
  });
});
