import { PredgateError } from '@predgate/core';
import { describe, expect, test } from 'vitest';
import { scrubCredentials } from './scrub.js';

const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';

describe('scrubCredentials', () => {
  test('masks secrets anywhere in the detail, multi-line and quoted ones too, keeping its shape', () => {
    const error = new PredgateError('AUTHENTICATION_ERROR', 'venue said: bad key "k-1234"', {
      exchange: 'kalshi',
      detail: { status: 401, echoed: { key: pem, headers: ['KALSHI-ACCESS-KEY: k-1234'] }, quote: 'pa"ss-5678' },
    });
    const scrubbed = scrubCredentials(error, { apiKey: 'k-1234', privateKey: pem, passphrase: 'pa"ss-5678' }) as PredgateError;
    expect(scrubbed.message).toBe('venue said: bad key "[redacted]"');
    expect(scrubbed.detail).toEqual({ status: 401, echoed: { key: '[redacted]', headers: ['KALSHI-ACCESS-KEY: [redacted]'] }, quote: '[redacted]' });
    expect(scrubbed.code).toBe('AUTHENTICATION_ERROR');
    expect(scrubbed.status).toBe(error.status);
  });

  test('a secret that looks like JSON syntax cannot break the detail', () => {
    const error = new PredgateError('BAD_REQUEST', 'rejected', { detail: { ok: true, note: 'x' } });
    const scrubbed = scrubCredentials(error, { apiSecret: '":true' }) as PredgateError;
    expect(scrubbed.detail).toEqual({ ok: true, note: 'x' });
  });
});
