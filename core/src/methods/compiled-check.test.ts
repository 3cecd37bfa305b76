import fc from 'fast-check';
import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { compiledCheckOf } from './compiled-check.js';
import { coreMethods } from './method-list.js';

const joiPasses = (schema: Joi.Schema, value: unknown) => schema.validate(value, { convert: false, abortEarly: true }).error === undefined;

const outcome = (id: string, price: number) => ({ outcomeId: id, label: 'Yes', price, marketId: 'm1', priceChange24h: -0.2, metadata: null });
const market = {
  marketId: 'm1',
  title: 'Will it?',
  description: '',
  outcomes: [outcome('o1', 0.4), outcome('o2', 0.6)],
  volume24h: 12.5,
  liquidity: 2 ** 60,
  url: 'https://example.test/m1',
  resolutionDate: '2027-01-01T00:00:00.000Z',
  tags: ['a', 'b'],
  tickSize: 0.01,
  status: 'active',
  sourceMetadata: { anything: [1, { deep: true }] },
  yes: outcome('o1', 0.4),
  no: outcome('o2', 0.6),
};
const event = { id: 'e1', title: 'Event', description: 'd', slug: 'event', markets: [market, market], volume24h: 0, url: '', category: 'Politics' };
const book = {
  bids: [{ price: 0.4, size: 10, orderCount: 2 }],
  asks: [{ price: 0.6, size: 2 ** 55 }],
  timestamp: 1_800_000_000_000,
  datetime: '2027-01-15T08:00:00+01:00',
  isNegRisk: false,
};
const trade = { id: 't1', timestamp: 1_800_000_000_000, price: 0.5, amount: 3, side: 'buy', outcomeId: 'o1' };

/** Answers inside the model, each with the methods whose result it is. */
const samples: Array<{ methods: Array<keyof typeof coreMethods>; value: unknown }> = [
  { methods: ['fetchEvent'], value: event },
  { methods: ['fetchEvents'], value: [event] },
  { methods: ['fetchMarkets'], value: [market] },
  { methods: ['fetchOrderBook'], value: book },
  { methods: ['fetchOrderBook'], value: [book, book] },
  { methods: ['fetchOrderBooks'], value: { o1: book } },
  { methods: ['fetchTrades'], value: [trade] },
];

/** Values a venue might send in a field's place: each is right for some fields and wrong for others. */
const oddValues: unknown[] = [
  undefined,
  null,
  '',
  'x',
  0,
  -0,
  -1,
  1.5,
  0.5,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  {},
  [null],
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01',
  1_800_000_000_000.5,
  'inactive',
  'sell',
];

/** Every path to a member or item of `value`. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [];
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...path, key], ...pathsOf((value as Record<string | number, unknown>)[key], [...path, key])]);
}

/** A deep copy of `value` with the member at `path` set to `replacement` (or a new member `extra` added to the object there). */
function changed(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path.at(-1)!] = replacement;
  return copy;
}

describe('the compiled answer check', () => {
  test('the read methods served most often compile, and pass their answers inside the model', () => {
    for (const { methods, value } of samples) {
      for (const method of methods) {
        const check = compiledCheckOf(coreMethods[method].result.schema);
        expect(check, method).toBeDefined();
        expect(check!(value), method).toBe(true);
        expect(joiPasses(coreMethods[method].result.schema, value), method).toBe(true);
      }
    }
  });

  test('it never passes an answer joi refuses (a field changed to an odd value, or an unknown member added)', () => {
    const isObject = (item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item);
    const at = (value: unknown, path: Array<string | number>) => path.reduce((item, key) => (item as Record<string | number, unknown>)[key], value);
    const cases = samples.flatMap(({ methods, value }) =>
      methods.map((method) => {
        const paths = pathsOf(value);
        return { method, value, paths, objects: [[], ...paths].filter((path) => isObject(at(value, path))) };
      }),
    );
    fc.assert(
      fc.property(fc.nat(cases.length - 1), fc.nat(), fc.nat(oddValues.length - 1), fc.boolean(), (caseIndex, pathIndex, oddIndex, addMember) => {
        const { method, value, paths, objects } = cases[caseIndex]!;
        const odd = addMember
          ? changed(value, [...objects[pathIndex % objects.length]!, 'unexpected'], oddValues[oddIndex])
          : changed(value, paths[pathIndex % paths.length]!, oddValues[oddIndex]);
        const schema = coreMethods[method].result.schema;
        if (compiledCheckOf(schema)!(odd)) expect(joiPasses(schema, odd)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('a schema using a feature it does not read is left to joi', () => {
    expect(compiledCheckOf(Joi.string().uri())).toBeUndefined();
    expect(compiledCheckOf(Joi.object({ a: Joi.number().when('b', { is: 1, then: Joi.required() }) }))).toBeUndefined();
    expect(compiledCheckOf(Joi.array().items(Joi.string()).unique())).toBeUndefined();
  });

  test('a member using a feature it does not read is never passed when present; one whose absence can mean more leaves the schema to joi', () => {
    const check = compiledCheckOf(Joi.object({ site: Joi.string().uri(), count: Joi.number() }))!;
    expect([{ count: 1 }, {}].map(check)).toEqual([true, true]);
    expect(check({ site: 'https://example.test', count: 1 })).toBe(false);
    expect(compiledCheckOf(Joi.object({ count: Joi.number().default(1) }))).toBeUndefined();
    expect(
      compiledCheckOf(
        Joi.object({
          count: Joi.number()
            .custom((value) => value)
            .default(1),
        }),
      ),
    ).toBeUndefined();
  });

  test('it reads tuples as joi does: each position its own schema, nothing past the last', () => {
    const check = compiledCheckOf(Joi.array().items(Joi.array().ordered(Joi.number().required(), Joi.string())))!;
    expect([[[1, 'a']], [[1]], []].map(check)).toEqual([true, true, true]);
    expect([[[]], [['a', 'a']], [[1, 'a', 2]], [[1, 2]]].map(check)).toEqual([false, false, false, false]);
    for (const value of [[[1, 'a']], [[1]], [[]], [['a', 'a']], [[1, 'a', 2]]]) {
      expect(Joi.array().items(Joi.array().ordered(Joi.number().required(), Joi.string())).validate(value, { convert: false }).error === undefined).toBe(
        check(value),
      );
    }
  });

  test('it reads `with` and `or` between members as joi does', () => {
    const check = compiledCheckOf(Joi.object({ a: Joi.number(), b: Joi.number(), c: Joi.number() }).or('a', 'b').with('c', 'a'))!;
    expect([{ a: 1 }, { b: 1 }, { a: 1, c: 1 }].map(check)).toEqual([true, true, true]);
    expect([{}, { c: 1 }, { b: 1, c: 1 }].map(check)).toEqual([false, false, false]);
  });

  test('it reads presence, allowed values, bounds and unknown keys as joi does', () => {
    const schema = Joi.object({ a: Joi.number().integer().min(1).required(), b: Joi.string().valid('x', 'y').allow(null) });
    const check = compiledCheckOf(schema)!;
    expect([{ a: 1 }, { a: 2, b: 'x' }, { a: 3, b: null }].map(check)).toEqual([true, true, true]);
    expect([{}, { a: 0 }, { a: 1.5 }, { a: 1, b: 'z' }, { a: 1, c: 1 }, [], null].map(check)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('the compiled argument check', () => {
  const declared = Object.entries(coreMethods).flatMap(([method, declaration]) =>
    declaration.args.flatMap((argument) => {
      const check = compiledCheckOf(argument.schema, 'arguments');
      return check ? [{ name: `${method}.${argument.name}`, schema: argument.schema, check }] : [];
    }),
  );
  /** Member names an argument object may carry: the declared ones of every params schema, and some it does not declare. */
  const names = [
    ...new Set(declared.flatMap(({ schema }) => Object.keys((schema.describe() as { keys?: Record<string, unknown> }).keys ?? {}))),
    'exchange',
    'unexpected',
  ];
  const values = fc.oneof(
    fc.constantFrom(...oddValues.filter((value) => value !== undefined)),
    fc.string({ maxLength: 8 }),
    fc.integer({ min: -5, max: 2000 }),
    fc.constantFrom('volume', 'active', 'yes', 'buy', 'limit', '10', 'title'),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  );
  const argumentValues = fc.oneof(values, fc.dictionary(fc.constantFrom(...names), values, { maxKeys: 4 }));

  test('the most called methods compile', () => {
    const compiled = new Set(declared.map(({ name }) => name));
    for (const name of ['fetchEvents.params', 'fetchEvent.params', 'fetchMarket.params', 'fetchOrderBook.outcomeId', 'fetchTrades.params'])
      expect(compiled).toContain(name);
  });

  test('a value it passes is one joi, converting, accepts and returns as it is', () => {
    fc.assert(
      fc.property(fc.nat(declared.length - 1), argumentValues, (index, value) => {
        const { schema, check } = declared[index]!;
        if (!check(value)) return;
        const judged = schema.validate(value, { convert: true, abortEarly: true });
        expect(judged.error).toBeUndefined();
        expect(judged.value).toEqual(value);
      }),
      { numRuns: 3000 },
    );
  });
});
