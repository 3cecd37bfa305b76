import { expect, test } from 'vitest';
import { requireCredentials } from './credentials.js';

test('returns credentials that have every needed member', () => {
  const credentials = { apiKey: 'id', privateKey: 'pem' };
  expect(requireCredentials(credentials, ['apiKey', 'privateKey'], 'kalshi')).toBe(credentials);
});

test('names the missing members, never the values', () => {
  const run = () => requireCredentials({ apiKey: 'visible-key', privateKey: '' }, ['apiKey', 'privateKey'], 'kalshi');
  expect(run).toThrow('kalshi needs the credentials members apiKey, privateKey; missing privateKey');
  try {
    run();
  } catch (error) {
    expect(error).toMatchObject({ code: 'AUTHENTICATION_ERROR', status: 401, detail: { required: ['apiKey', 'privateKey'], missing: ['privateKey'] } });
    expect(JSON.stringify(error)).not.toContain('visible-key');
  }
});

test('no credentials at all', () => {
  expect(() => requireCredentials(undefined, ['apiKey'], 'kalshi')).toThrow(expect.objectContaining({ code: 'AUTHENTICATION_ERROR' }));
});
