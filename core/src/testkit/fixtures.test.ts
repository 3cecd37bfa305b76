import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { normalizeOrderBook } from '../behaviour/order-book.js';
import { PredgateError } from '../errors.js';
import type { VenueAdapter } from '../methods/adapter.js';
import type { AdapterFactoryContext, FixtureCase } from './fixtures.js';
import { loadFixtureCases, replayAgent, runFixtureSuite } from './fixtures.js';

const host = 'https://tiny.test';
const now = Date.UTC(2026, 10, 22);

/** A two-method venue over HTTP, written the way a real adapter is. */
function tinyVenue(context: AdapterFactoryContext): VenueAdapter {
  const http = context.http({
    venue: 'tiny',
    mapError: (failure) => (failure.status === 404 ? new PredgateError('NOT_FOUND', 'No orderbook exists', { exchange: 'tiny' }) : undefined),
  });
  return {
    id: 'tiny',
    profile: { displayName: 'Tiny', hosts: { api: host }, rateLimit: null, credentials: { required: ['apiKey'], optional: [] } },
    async fetchOrderBook(outcomeId) {
      const raw = await http.json<{ bids: Array<[string, string]>; asks: Array<[string, string]> }>({
        url: `${host}/book`,
        query: { token: outcomeId, depth: 10 },
        headers: context.credentials?.apiKey ? { 'x-key': context.credentials.apiKey } : {},
      });
      const levels = (side: Array<[string, string]>) => side.map(([price, size]) => ({ price: Number(price), size: Number(size) }));
      return normalizeOrderBook({ bids: levels(raw.bids), asks: levels(raw.asks), timestamp: context.clock.now() });
    },
    async cancelOrder(orderId) {
      await http.request({ method: 'DELETE', url: `${host}/order`, body: { id: orderId } });
      return {
        id: orderId,
        marketId: 'm',
        outcomeId: 'o',
        side: 'buy',
        type: 'limit',
        amount: 1,
        status: 'cancelled',
        filled: 0,
        remaining: 0,
        timestamp: context.clock.now(),
      };
    },
  };
}

const book = {
  bids: [
    ['0.40', '10'],
    ['0.41', '5'],
  ],
  asks: [['0.45', '7']],
};

const requestCases: Array<Partial<FixtureCase>> = [
  {
    title: 'book by token, signed when credentials are given',
    method: 'fetchOrderBook',
    args: ['tok-1'],
    credentials: { apiKey: 'k-1' },
    exchanges: [
      {
        request: { method: 'GET', url: `${host}/book?depth=10&token=tok-1`, headers: { 'X-Key': 'k-1' } },
        response: { status: 200, bodyFile: '../payloads/book.json' },
      },
    ],
  },
  {
    title: 'cancel sends the id in a JSON body',
    method: 'cancelOrder',
    args: ['ord-9'],
    exchanges: [{ request: { method: 'DELETE', url: `${host}/order`, body: { id: { $matches: '^ord-\\d+$' } } }, response: { status: 200, body: {} } }],
  },
];

const responseCases: Array<Partial<FixtureCase>> = [
  {
    title: 'levels sorted best first',
    method: 'fetchOrderBook',
    args: ['tok-1'],
    exchanges: [{ request: { method: 'GET', url: `${host}/book?token=tok-1&depth=10` }, response: { status: 200, bodyFile: '../payloads/book.json' } }],
    result: {
      bids: [
        { price: 0.41, size: 5 },
        { price: 0.4, size: 10 },
      ],
      asks: [{ price: 0.45, size: 7 }],
      timestamp: now,
      datetime: new Date(now).toISOString(),
    },
  },
  {
    title: 'unknown token',
    method: 'fetchOrderBook',
    args: ['nope'],
    exchanges: [{ request: { method: 'GET', url: `${host}/book?token=nope&depth=10` }, response: { status: 404, body: { error: 'No orderbook exists' } } }],
    error: { code: 'NOT_FOUND', message: 'No orderbook exists' },
  },
  {
    title: 'cancelled order',
    method: 'cancelOrder',
    args: ['ord-1'],
    exchanges: [{ request: { method: 'DELETE', url: `${host}/order` }, response: { status: 200, body: {} } }],
    match: { id: 'ord-1', status: 'cancelled' },
  },
];

function fixtureFolder(requests: Array<Partial<FixtureCase>>, responses: Array<Partial<FixtureCase>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'predgate-fixtures-'));
  for (const folder of ['requests', 'responses', 'payloads']) mkdirSync(join(dir, folder));
  writeFileSync(join(dir, 'payloads', 'book.json'), JSON.stringify(book));
  writeFileSync(join(dir, 'requests', 'all.json'), JSON.stringify(requests));
  responses.forEach((fixture, index) => writeFileSync(join(dir, 'responses', `case-${index}.json`), JSON.stringify(fixture)));
  return dir;
}

async function runSuite(dir: string, create = tinyVenue): Promise<Array<{ name: string; error?: Error }>> {
  const registered: Array<{ name: string; body: () => Promise<void> }> = [];
  runFixtureSuite((name, body) => registered.push({ name, body }), { name: 'tiny', dir, create, now });
  const results = [];
  for (const { name, body } of registered) {
    try {
      await body();
      results.push({ name });
    } catch (error) {
      results.push({ name, error: error as Error });
    }
  }
  return results;
}

describe('runFixtureSuite', () => {
  test('passes an adapter whose traffic and results match its fixtures', async () => {
    const results = await runSuite(fixtureFolder(requestCases, responseCases));
    expect(results.map((result) => result.name)).toEqual([
      'tiny: every claimed method has request and response fixtures',
      'tiny: request fetchOrderBook: book by token, signed when credentials are given',
      'tiny: request cancelOrder: cancel sends the id in a JSON body',
      'tiny: response fetchOrderBook: levels sorted best first',
      'tiny: response fetchOrderBook: unknown token',
      'tiny: response cancelOrder: cancelled order',
    ]);
    expect(results.filter((result) => result.error).map((result) => result.error?.message)).toEqual([]);
  });

  test('fails on a request the fixtures do not expect, and on one they expect but is not made', async () => {
    const wrongQuery = [
      { ...requestCases[0]!, exchanges: [{ ...requestCases[0]!.exchanges![0]!, request: { method: 'GET', url: `${host}/book?token=tok-1` } }] },
    ];
    const [, failed] = await runSuite(fixtureFolder(wrongQuery, []));
    expect(failed?.error?.message).toContain(`unexpected request GET ${host}/book?token=tok-1&depth=10`);
    expect(failed?.error?.message).toContain(`expected request not made: GET ${host}/book?token=tok-1`);
  });

  test('fails on a header or body that differs', async () => {
    const wrongHeader = [
      { ...requestCases[0]!, credentials: { apiKey: 'other' } },
      { ...requestCases[1]!, args: ['x-9'] },
    ];
    const [, header, body] = await runSuite(fixtureFolder(wrongHeader, []));
    expect(header?.error?.message).toContain('header X-Key is "other", expected "k-1"');
    expect(body?.error?.message).toContain('body differs');
  });

  test('shows a diff when the unified result differs', async () => {
    const wrong = [{ ...responseCases[0]!, result: { ...(responseCases[0]!.result as object), asks: [{ price: 0.46, size: 7 }] } }];
    const results = await runSuite(fixtureFolder(requestCases, wrong));
    const message = results.find((result) => result.name.includes('levels sorted'))?.error?.message ?? '';
    expect(message).toContain('the unified result differs from the fixture');
    expect(message).toContain('0.46');
  });

  test('`$absent` passes only when the member is missing', async () => {
    const absent = { ...responseCases[0]!, result: undefined, match: { asks: [{ price: 0.45, lastTradePrice: { $absent: true } }] } };
    const present = { ...responseCases[0]!, title: 'present', result: undefined, match: { asks: [{ price: 0.45, size: { $absent: true } }] } };
    const results = await runSuite(fixtureFolder(requestCases, [absent, present]));
    expect(results.find((result) => result.name.includes('levels sorted'))?.error).toBeUndefined();
    expect(results.find((result) => result.name.endsWith(': present'))?.error?.message).toContain('does not contain the fixture');
  });

  test('fails when the expected error does not come', async () => {
    const wrong = [{ ...responseCases[1]!, error: { code: 'MARKET_NOT_FOUND' } }];
    const results = await runSuite(fixtureFolder(requestCases, wrong));
    expect(results.find((result) => result.name.includes('unknown token'))?.error?.message).toContain('wrong error');
  });

  test('fails when a claimed method lacks a kind of fixture', async () => {
    const [coverage] = await runSuite(fixtureFolder(requestCases.slice(0, 1), responseCases.slice(0, 1)));
    expect(coverage?.error?.message).toContain('methods without fixtures: cancelOrder (request), cancelOrder (response)');
  });
});

describe('replayAgent', () => {
  test('answers every fixture request, in any order, for whole-gateway tests', async () => {
    const dir = fixtureFolder(requestCases, responseCases);
    const agent = replayAgent(loadFixtureCases(dir));
    const answer = await request(`${host}/book?depth=10&token=tok-1`, { dispatcher: agent });
    expect(await answer.body.json()).toEqual(book);
    const missing = await request(`${host}/book?depth=10&token=nope`, { dispatcher: agent });
    expect(missing.statusCode).toBe(404);
    await agent.close();
  });
});
