import fc from 'fast-check';
import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { isPredgateError } from '../errors.js';
import { compiledCheckOf } from '../methods/compiled-check.js';
import type { PredgateError } from '../errors.js';
import { withDriftSink } from './drift.js';
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
    expect(checkPayload(schema, body, source)).toEqual(body);
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

describe('lists checked item by item', () => {
  const market = Joi.object({ ticker: Joi.string().required(), volume: venueValue.amount() });
  const page = Joi.object({ markets: venueValue.items(market, { id: 'ticker' }).required(), cursor: Joi.string() }).required();
  const body = { markets: [{ ticker: 'A', volume: 3 }, { ticker: 'B', volume: 'lots' }, { ticker: 'C' }], cursor: 'next' };

  test('an unreadable item is left out and reported as drift with its id and field; the rest is read', () => {
    const reports: PredgateError[] = [];
    const checked = withDriftSink(
      (report) => reports.push(report),
      () => checkPayload<typeof body>(page, body, source),
    );
    expect(checked).toEqual({ markets: [{ ticker: 'A', volume: 3 }, { ticker: 'C' }], cursor: 'next' });
    expect(body.markets).toHaveLength(3);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.code).toBe('EXCHANGE_NOT_AVAILABLE');
    expect(reports[0]!.detail).toMatchObject({ endpoint: 'GET /things', field: 'markets.1.volume', item: 'B', drift: true });
    expect(reports[0]!.message).toMatch(/item \(B\).*volume/);
  });

  test('items nested in items are checked on their own too', () => {
    const event = Joi.object({ id: Joi.string().required(), markets: venueValue.items(market, { id: 'ticker' }) });
    const reports: PredgateError[] = [];
    const checked = withDriftSink(
      (report) => reports.push(report),
      () => checkPayload(venueValue.items(event, { id: 'id' }), [{ id: 'E', markets: [{ ticker: 'A' }, { ticker: 7 }] }, { markets: [] }], source),
    );
    expect(checked).toEqual([{ id: 'E', markets: [{ ticker: 'A' }] }]);
    expect(reports.map((report) => [report.detail?.field, report.detail?.item])).toEqual([
      ['0.markets.1.ticker', '7'],
      ['1.id', '#1'],
    ]);
  });

  test('an id nested in the item is named by its dotted path', () => {
    const row = Joi.object({ order: Joi.object({ oid: Joi.number().required() }).required(), status: Joi.string().required() });
    const reports: PredgateError[] = [];
    withDriftSink(
      (report) => reports.push(report),
      () => checkPayload(venueValue.items(row, { id: 'order.oid' }), [{ order: { oid: 7 }, status: 'open' }, { order: { oid: 8 } }, null], source),
    );
    expect(reports.map((report) => [report.detail?.field, report.detail?.item])).toEqual([
      ['1.status', '8'],
      ['2', '#2'],
    ]);
  });

  test('an unreadable envelope refuses the answer, as one drift, without reporting its items', () => {
    const reports: PredgateError[] = [];
    expect(() =>
      withDriftSink(
        (report) => reports.push(report),
        () => checkPayload(page, { ...body, cursor: 5 }, source),
      ),
    ).toThrow(/cursor/);
    expect(reports).toEqual([]);
  });

  test('a list that is not a list is refused', () => {
    expect(() => checkPayload(page, { markets: { ticker: 'A' } }, source)).toThrow(/markets/);
  });
});

describe('numbers past 2^53', () => {
  test('an amount past 2^53 is accepted, to be read as the nearest double', () => {
    const amounts = Joi.object({ total: venueValue.amount() });
    expect(checkPayload(amounts, JSON.parse('{"total": 9007199254740993}') as unknown, source)).toEqual({ total: 9_007_199_254_740_992 });
    expect(checkPayload(amounts, { total: '9007199254740993' }, source)).toEqual({ total: '9007199254740993' });
  });

  test('a bare exact number past 2^53 is refused naming the field, with how to read it exactly', () => {
    expect(() => checkPayload(Joi.object({ size: venueValue.numeric() }), JSON.parse('{"size": 9007199254740993}') as unknown, source)).toThrow(
      /exactIntegers/,
    );
  });
});

describe('the compiled payload check', () => {
  const level = Joi.object({ price: venueValue.amount().required(), size: venueValue.amount().required() });
  const book = Joi.object({
    asset_id: venueValue.id(),
    bids: Joi.array().items(level).allow(null).required(),
    asks: Joi.array().items(level).allow(null).required(),
    timestamp: venueValue.time().allow(null, ''),
    volume: venueValue.numeric(),
    strict: Joi.object({ a: Joi.number() }).unknown(false),
  });
  const values = fc.oneof(
    fc.constantFrom(null, '', 'x', '.48', '1e18', '-3', 0, -1, 0.5, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}),
    fc.string({ maxLength: 6 }),
    fc.double(),
  );
  const levels = fc.array(fc.record({ price: values, size: values }, { requiredKeys: [] }), { maxLength: 3 });
  const books = fc.record(
    {
      asset_id: values,
      bids: fc.oneof(levels, values),
      asks: fc.oneof(levels, values),
      timestamp: values,
      volume: values,
      strict: fc.dictionary(fc.constantFrom('a', 'b'), values, { maxKeys: 2 }),
      extra: values,
    },
    { requiredKeys: ['bids', 'asks'] },
  );

  test('a book in the shape read passes without joi, extra venue members included', () => {
    const check = compiledCheckOf(book, 'payloads')!;
    expect(check).toBeDefined();
    expect(check({ asset_id: '7', bids: [{ price: '0.48', size: 100 }], asks: null, timestamp: 1_800_000_000_000, hash: 'venue-only' })).toBe(true);
  });

  test('it never passes a body joi refuses, and what it passes is the body checkPayload returns', () => {
    const check = compiledCheckOf(book, 'payloads')!;
    fc.assert(
      fc.property(books, (body) => {
        if (!check(body)) return;
        expect(book.validate(body, { abortEarly: true, allowUnknown: true, convert: false }).error).toBeUndefined();
        expect(checkPayload(book, body, source)).toBe(body);
      }),
      { numRuns: 3000 },
    );
  });
});
