import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { isPredgateError } from '../errors.js';
import { checkPayload, venueValue } from './payload.js';

const schema = Joi.object({ ids: venueValue.jsonList().allow(null), volume: venueValue.numeric(), id: venueValue.id() });
const source = { venue: 'test', endpoint: 'GET /things' };

function failure(body: unknown): { field: unknown; message: string } {
  try {
    checkPayload(schema, body, source);
  } catch (error) {
    if (!isPredgateError(error)) throw error;
    expect(error.code).toBe('EXCHANGE_NOT_AVAILABLE');
    return { field: error.detail?.field, message: error.message };
  }
  throw new Error('the payload was accepted');
}

describe('venue value shapes', () => {
  test.each([
    ['a JSON list', { ids: ['1', 2] }],
    ['JSON text of a list of string ids past 2^53', { ids: '["42859052879714956954021268148812996183888745727429575900918186031868405147361"]' }],
    ['JSON text of prices', { ids: '[0.535, 0.465]' }],
    ['empty text (a closed market)', { ids: '' }],
    ['null', { ids: null }],
    ['a numeric string past 2^53', { volume: '123456789012345678901234.5' }],
    ['a string id past 2^53', { id: '9007199254740993' }],
  ])('accepted: %s', (_name, body) => {
    expect(checkPayload(schema, body, source)).toBe(body);
  });

  test.each([
    ['text that is no JSON', { ids: '[Yes, No' }, 'ids', /must be a list/],
    ['JSON text of an object', { ids: '{"a":1}' }, 'ids', /must be a list/],
    [
      'bare token ids past 2^53, whose digits parsing changes',
      { ids: '[42859052879714956954021268148812996183888745727429575900918186031868405147361, 2]' },
      'ids',
      /too large to read exactly/,
    ],
    ['a bare id past 2^53', JSON.parse('{"id": 9007199254740993}') as unknown, 'id', /safe number/],
    ['a number where a list belongs', { ids: 3 }, 'ids', /must be a list/],
    ['a word where a number belongs', { volume: 'lots' }, 'volume', /numeric string/],
  ])('refused naming the field: %s', (_name, body, field, message) => {
    const { field: named, message: text } = failure(body);
    expect(named).toBe(field);
    expect(text).toMatch(message);
  });
});
