import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import { socketUrl, streamConfig, unlessMissing, venueUrl } from './config.js';

describe('adapter configuration pieces', () => {
  const schema = Joi.object({
    baseUrl: venueUrl('https://api.venue.test'),
    ws: socketUrl('wss://ws.venue.test'),
    stream: streamConfig({ pingIntervalMs: 10_000 }),
  });

  test('defaults fill an empty section', () => {
    expect(schema.validate({}).value).toEqual({
      baseUrl: 'https://api.venue.test',
      ws: 'wss://ws.venue.test',
      stream: { pingIntervalMs: 10_000, backoff: { initialMs: 500, maxMs: 30_000 } },
    });
  });

  test('URLs lose trailing slashes; a socket URL must be ws(s) and a venue URL http(s)', () => {
    expect(schema.validate({ baseUrl: 'http://127.0.0.1:8080//', ws: 'ws://127.0.0.1:9/' }).value).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080',
      ws: 'ws://127.0.0.1:9',
    });
    expect(schema.validate({ baseUrl: 'wss://api.venue.test' }).error?.message).toContain(
      '"baseUrl" must be a valid uri with a scheme matching the https|http pattern',
    );
    expect(schema.validate({ ws: 'https://ws.venue.test' }).error?.message).toContain('"ws" must be a valid uri');
  });

  test('the stream block takes a venue’s own members and bounds its own', () => {
    const withCredentials = streamConfig({}, { credentials: Joi.object({ apiKey: Joi.string().required() }) });
    expect(withCredentials.validate({ credentials: { apiKey: 'k' } }).value).toMatchObject({ pingIntervalMs: 20_000, credentials: { apiKey: 'k' } });
    expect(withCredentials.validate({ pingIntervalMs: 1 }).error?.message).toBe('"pingIntervalMs" must be greater than or equal to 10');
  });
});

describe('unlessMissing', () => {
  test('a not-found error answers nothing; any other error is thrown; an answer passes', async () => {
    await expect(unlessMissing(Promise.reject(new PredgateError('MARKET_NOT_FOUND', 'gone')))).resolves.toBeUndefined();
    await expect(unlessMissing(Promise.reject(new PredgateError('NETWORK_ERROR', 'down')))).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    await expect(unlessMissing(Promise.resolve(3))).resolves.toBe(3);
  });
});
