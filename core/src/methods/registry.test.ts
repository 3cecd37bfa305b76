import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import { capabilitiesOf } from './capabilities.js';
import { arg, method, optional, returns } from './declaration.js';
import { coreMethods } from './method-list.js';
import { createMethodRegistry } from './registry.js';

const registry = createMethodRegistry();
const routed = (name: string) => {
  const found = registry.get(name);
  if (!found) throw new Error(`no method ${name}`);
  return found;
};

function failure(run: () => unknown): PredgateError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PredgateError);
    return error as PredgateError;
  }
  throw new Error('expected a validation error');
}

describe('the core method list', () => {
  test('covers the methods every adapter and client relies on', () => {
    const required = [
      'fetchEvents',
      'fetchEvent',
      'fetchMarkets',
      'fetchMarket',
      'fetchEventMetadata',
      'fetchSeries',
      'fetchOrderBook',
      'fetchOrderBooks',
      'fetchTrades',
      'fetchOHLCV',
      'filterEvents',
      'filterMarkets',
      'getExecutionPrice',
      'getExecutionPriceDetailed',
      'createOrder',
      'buildOrder',
      'submitOrder',
      'cancelOrder',
      'fetchOrder',
      'fetchOpenOrders',
      'fetchClosedOrders',
      'fetchAllOrders',
      'fetchMyTrades',
      'fetchPositions',
      'fetchBalance',
      'describe',
    ];
    expect(registry.names).toEqual(expect.arrayContaining(required));
  });

  test('GET is offered only where the arguments fit a query string', () => {
    expect(routed('fetchEvents').allowsGet).toBe(true);
    expect(routed('fetchOrderBook').allowsGet).toBe(true);
    for (const name of ['filterEvents', 'filterMarkets', 'createOrder', 'cancelOrder', 'getExecutionPrice']) {
      expect(routed(name).allowsGet, name).toBe(false);
    }
  });

  test('only catalog reads may be served from the catalog, and account methods need credentials', () => {
    const catalog = Object.entries(coreMethods)
      .filter(([, declaration]) => declaration.catalog)
      .map(([name]) => name);
    expect(catalog.sort()).toEqual(['fetchEvent', 'fetchEvents', 'fetchMarket', 'fetchMarkets']);
    expect(coreMethods.fetchBalance.credentials).toBe(true);
    expect(coreMethods.fetchOrderBook.credentials).toBe(false);
  });

  test('unknown names, including inherited object keys, are not methods', () => {
    expect(registry.get('fetchNothing')).toBeUndefined();
    expect(registry.get('toString')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
  });
});

describe('adding a method is one declaration', () => {
  const list = {
    ...coreMethods,
    fetchFunding: method({
      doc: 'Funding rate of one outcome.',
      args: [arg.id('outcomeId'), optional(arg.integer('window'))],
      result: returns<number>(Joi.number()),
      verbs: ['GET', 'POST'],
    }),
  };

  test('it is routed, coerced and validated', () => {
    const extended = createMethodRegistry(list);
    const funding = extended.get('fetchFunding')!;
    expect(funding.allowsGet).toBe(true);
    expect(funding.fromQuery({ outcomeId: '007', window: '24' }).args).toEqual(['007', 24]);
    expect(failure(() => funding.fromQuery({ window: '24' })).message).toContain('"outcomeId" is required');
  });

  test('it appears in the capability map, true only for adapters that implement it', () => {
    const profile = { displayName: 'x', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } };
    const withIt = { id: 'a', profile, fetchFunding: async () => 0.01 };
    const without = { id: 'b', profile };
    expect(capabilitiesOf(withIt, list).fetchFunding).toBe(true);
    expect(capabilitiesOf(without, list).fetchFunding).toBe(false);
    expect(capabilitiesOf(without).fetchFunding).toBeUndefined();
  });

  test('incoherent declarations fail when the list loads', () => {
    expect(() => method({ doc: 'x', args: [optional(arg.id('a')), arg.id('b')], result: returns(Joi.any()), verbs: ['POST'] })).toThrow(
      'optional arguments come last',
    );
    expect(() => method({ doc: 'x', args: [arg.list('items', Joi.array())], result: returns(Joi.any()), verbs: ['GET', 'POST'] })).toThrow(
      'cannot be called with GET',
    );
  });
});

describe('query string coercion by declared kind', () => {
  test.each([
    ['ids stay strings, even when numeric', 'fetchOrder', { orderId: '000123' }, ['000123']],
    ['a params object takes the unclaimed keys, numbers converted', 'fetchEvents', { query: 'fed', limit: '2' }, [{ query: 'fed', limit: 2 }]],
    ['id members of a params object stay strings', 'fetchEvents', { eventId: '30829' }, [{ eventId: '30829' }]],
    ['a single tag becomes a list', 'fetchEvents', { tags: 'nba' }, [{ tags: ['nba'] }]],
    ['repeated keys become a list', 'fetchEvents', { tags: ['nba', 'nfl'] }, [{ tags: ['nba', 'nfl'] }]],
    ['exchange is an alias of sourceExchange', 'fetchMarkets', { exchange: 'mock' }, [{ sourceExchange: 'mock' }]],
    ['JSON text for an object member', 'fetchEvents', { filter: '{"marketCount":{"min":2}}' }, [{ filter: { marketCount: { min: 2 } } }]],
    ['positional arguments by name, the rest into params', 'fetchOrderBook', { outcomeId: '7', limit: '5', outcome: 'yes' }, ['7', 5, { outcome: 'yes' }]],
    ['pmxt clients name the outcome id `id`', 'fetchOHLCV', { id: 'tok', resolution: '1h' }, ['tok', { resolution: '1h' }]],
    ['dates from ISO text', 'fetchTrades', { outcomeId: 't', start: '2026-01-01T00:00:00Z' }, ['t', { start: new Date('2026-01-01T00:00:00Z') }]],
    ['repeated ids become the list argument', 'fetchOrderBooks', { outcomeIds: ['a', 'b'] }, [['a', 'b']]],
    ['no keys, no arguments', 'fetchEvents', {}, []],
  ])('%s', (_title, name, query, expected) => {
    expect(routed(name).fromQuery(query as Record<string, string>).args).toEqual(expected);
  });

  test.each([
    ['an unknown member of the params object', 'fetchEvents', { limt: '2' }, 'params.limt', 'object.unknown'],
    ['a number where a whole number is due', 'fetchEvents', { limit: 'two' }, 'params.limit', 'number.base'],
    ['a value out of range', 'fetchEvents', { limit: '0' }, 'params.limit', 'number.min'],
    ['a value outside the allowed set', 'fetchEvents', { status: 'open' }, 'params.status', 'any.only'],
    ['a required argument', 'fetchOrder', {}, 'orderId', 'any.required'],
    ['an argument the method does not take', 'fetchOrder', { orderId: '1', extra: 'x' }, 'extra', 'any.unknown'],
    ['a repeated key for a single value', 'fetchOrder', { orderId: ['1', '2'] }, 'orderId', 'alternatives.types'],
    ['malformed JSON text', 'fetchEvents', { filter: '{oops' }, 'params.filter', 'json.parse'],
    ['an argument named twice', 'fetchOHLCV', { id: 'a', outcomeId: 'b', resolution: '1h' }, 'outcomeId', undefined],
  ])('rejects %s, naming it', (_title, name, query, argument, rule) => {
    const error = failure(() => routed(name).fromQuery(query as Record<string, string>));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(400);
    expect(error.message).toContain(name);
    expect(JSON.stringify(error.detail)).toContain(argument);
    if (rule) expect(error.detail?.rule).toBe(rule);
  });
});

describe('POST bodies', () => {
  const forms = {
    args: { args: [{ limit: 2, query: 'fed' }] },
    kwargs: { kwargs: { limit: 2, query: 'fed' } },
    flat: { limit: 2, query: 'fed' },
    'named params object': { kwargs: { params: { limit: 2, query: 'fed' } } },
  };
  test.each(Object.entries(forms))('%s gives the same arguments as the query string', (_form, body) => {
    expect(routed('fetchEvents').fromBody(body).args).toEqual(routed('fetchEvents').fromQuery({ limit: '2', query: 'fed' }).args);
  });

  test('positional args follow the declared order, null standing for an omitted argument', () => {
    expect(routed('fetchOrderBook').fromBody({ args: ['tok', null, { outcome: 'yes' }] }).args).toEqual(['tok', undefined, { outcome: 'yes' }]);
  });

  test('a lone object in args holds named arguments when the first argument is not an object', () => {
    expect(routed('fetchOrderBook').fromBody({ args: [{ outcomeId: 'tok', limit: 3 }] }).args).toEqual(['tok', 3]);
    expect(routed('fetchEventMetadata').fromBody({ args: [{ eventTicker: 'KXFED-26JUN' }] }).args).toEqual(['KXFED-26JUN']);
  });

  test("pmxtjs 2.41's [outcomeId, side] still works", () => {
    expect(routed('fetchOrderBook').fromBody({ args: ['tok', 'no'] }).args).toEqual(['tok', undefined, { side: 'no' }]);
  });

  test('a flat createOrder body is its parameters', () => {
    const order = { marketId: 'm', outcomeId: 'o', side: 'buy', type: 'limit', price: 0.4, amount: 10 };
    expect(routed('createOrder').fromBody(order).args).toEqual([order]);
    expect(failure(() => routed('createOrder').fromBody({ ...order, price: undefined })).detail?.path).toBe('params.price');
  });

  test('numeric ids are accepted only while exact, and become strings', () => {
    expect(routed('fetchOrder').fromBody({ args: [42] }).args).toEqual(['42']);
    const error = failure(() => routed('fetchOrder').fromBody({ args: [2 ** 60] }));
    expect(error.message).toContain('send ids as strings');
  });

  test('credentials are read and checked, never echoed', () => {
    const body = { args: [], credentials: { apiKey: 'k', privateKey: '0xsecret', signatureType: 'gnosis-safe' } };
    expect(routed('fetchBalance').fromBody(body).credentials).toEqual(body.credentials);
    const error = failure(() => routed('fetchBalance').fromBody({ args: [], credentials: { privateKey: { nested: 'sup3rsecret' } } }));
    expect(error.message).toContain('credentials.privateKey');
    expect(JSON.stringify(error.toJSON())).not.toContain('sup3rsecret');
    const whole = failure(() => routed('fetchBalance').fromBody({ args: [], credentials: 'sup3rsecret' }));
    expect(whole.message).toBe('fetchBalance: "credentials" is invalid');
    expect(JSON.stringify(whole.toJSON())).not.toContain('sup3rsecret');
  });

  test.each([
    ['a non-object body', [1, 2], 'JSON object'],
    ['args that are not a list', { args: 'x' }, '"args" must be an array'],
    ['too many arguments', { args: ['a', 'b'] }, 'at most 1 argument'],
    ['another member next to args', { args: [], limit: 2 }, '"limit" is not allowed next to "args"'],
    ['kwargs that are not an object', { kwargs: [] }, '"kwargs" must be an object'],
  ])('rejects %s', (_title, body, message) => {
    const error = failure(() => routed('fetchOrder').fromBody(body));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toContain(message);
  });
});
