import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request as undiciRequest } from 'undici';
import { apiKey, listeningApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * Valid GETs are answered in front of hapi, by each route's lean form. These
 * tests send each request to a gateway on 127.0.0.1 (through the lean path)
 * and the same request to hapi itself (`inject`), and hold the two answers
 * to be the same: status, headers and bytes.
 */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders | Record<string, unknown>;
  bytes: Buffer;
}

const compressed = 'gzip, deflate, br';

type Started = Awaited<ReturnType<typeof listeningApp>>;

async function overSocket(origin: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const response = await undiciRequest(`${origin}${path}`, { headers });
  return { status: response.statusCode, headers: response.headers, bytes: Buffer.from(await response.body.arrayBuffer()) };
}

async function fromHapi(app: TestApp, path: string, headers: Record<string, string>): Promise<Answer> {
  const response = await app.server.inject({ url: path, headers });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

/** The headers of the answer, less those of the moment, the connection, and the request's place in its key's budget. */
function answerHeaders(headers: Answer['headers']): Record<string, string> {
  const dropped = new Set(['date', 'connection', 'keep-alive', 'ratelimit-remaining', 'ratelimit-reset']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !dropped.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

function decoded(answer: Answer): string {
  const coding = answer.headers['content-encoding'];
  const bytes = coding === 'gzip' ? gunzipSync(answer.bytes) : coding === 'br' ? brotliDecompressSync(answer.bytes) : answer.bytes;
  return bytes.toString('utf8');
}

/** Sends `path` through the lean path, then to hapi, and expects one answer; says whether hapi saw the first. */
async function sameAnswer(started: Started, path: string, headers: Record<string, string>): Promise<{ lean: Answer; reachedHapi: boolean }> {
  const before = started.seenByHapi();
  const lean = await overSocket(started.origin, path, headers);
  const reachedHapi = started.seenByHapi() > before;
  const hapi = await fromHapi(started.app, path, headers);
  expect(lean.status).toBe(hapi.status);
  expect(answerHeaders(lean.headers)).toEqual(answerHeaders(hapi.headers));
  expect(decoded(lean)).toBe(decoded(hapi));
  // Stored answers are kept as sent: hapi's answer is the same bytes, not only the same JSON.
  if (lean.status === 200) expect(lean.bytes.equals(hapi.bytes)).toBe(true);
  return { lean, reachedHapi };
}

describe('the lean path in front of hapi', () => {
  let started: Started;
  let eventId: string;
  let outcomeId: string;
  const key = { authorization: `Bearer ${apiKey}` };

  beforeAll(async () => {
    started = await listeningApp();
    const page = await fromHapi(started.app, '/v0/events?limit=1', key);
    eventId = (JSON.parse(page.bytes.toString('utf8')) as { data: Array<{ id: string }> }).data[0]!.id;
    const markets = await fromHapi(started.app, '/api/mock/fetchMarkets?limit=1', key);
    outcomeId = (JSON.parse(markets.bytes.toString('utf8')) as { data: Array<{ outcomes: Array<{ outcomeId: string }> }> }).data[0]!.outcomes[0]!.outcomeId;
  });
  afterAll(() => started.app.stop());

  const valid = (): Array<[string, string]> => [
    ['a small Router page', '/v0/events?limit=2&offset=3'],
    ['a large Router page (compressed, stitched gzip where taken)', '/v0/events?limit=30&closed=1'],
    ['a Router search', '/v0/events?query=the&limit=5'],
    ['a Router event by id', `/v0/events/${eventId}`],
    ['a Router event by id in capitals', `/v0/events/${eventId.toUpperCase()}`],
    ['a catalog-served page', '/api/mock/fetchMarkets?limit=2&offset=1'],
    ['a large catalog-served page', '/api/mock/fetchEvents?limit=20'],
    ['a catalog-served lookup', '/api/mock/fetchEvent?eventId=mock-e1'],
    ['a live order book', `/api/mock/fetchOrderBook?outcomeId=${encodeURIComponent(outcomeId)}`],
    ['live candles', `/api/mock/fetchOHLCV?outcomeId=${encodeURIComponent(outcomeId)}&resolution=1h&limit=3`],
    ['what the gateway knows of a venue', '/api/mock/describe'],
  ];

  test.each(['identity', compressed, 'br', 'gzip'])(
    'valid Router GETs (accept-encoding %s) are answered without hapi, as hapi answers them',
    async (encoding) => {
      for (const [title, path] of valid()) {
        const { lean, reachedHapi } = await sameAnswer(started, path, { ...key, 'accept-encoding': encoding });
        expect(lean.status, title).toBe(200);
        expect(reachedHapi, title).toBe(false);
      }
    },
  );

  test('an event the catalog lacks is refused on the lean path, in the Router envelope, as hapi refuses it', async () => {
    const { lean, reachedHapi } = await sameAnswer(started, '/v0/events/00000000-0000-4000-8000-000000000000', key);
    expect(lean.status).toBe(404);
    expect(reachedHapi).toBe(false);
    expect(JSON.parse(lean.bytes.toString('utf8'))).toMatchObject({ error: { code: 'EVENT_NOT_FOUND' } });
    // A failed request writes its line at the default level, whichever path answered it: here, once for each path.
    const lines = started.app.logs.filter((line) => line.includes('[response] get /v0/events/00000000-0000-4000-8000-000000000000 404'));
    expect(lines).toHaveLength(2);
  });

  test('a live call the venue refuses is refused on the lean path, in the pass-through envelope naming the venue, as hapi refuses it', async () => {
    const { lean, reachedHapi } = await sameAnswer(started, '/api/mock/fetchOrderBook?outcomeId=no-such-outcome', key);
    expect(lean.status).toBe(404);
    expect(reachedHapi).toBe(false);
    expect(JSON.parse(lean.bytes.toString('utf8'))).toMatchObject({ success: false, error: { code: 'OUTCOME_NOT_FOUND', exchange: 'mock' } });
  });

  test('invalid arguments, other spellings of a path and a coding only hapi makes go on to hapi, which answers as ever', async () => {
    const sent: Array<[string, Record<string, string>]> = [
      ['/v0/events?limit=0', key],
      ['/v0/events?limit=1&limit=2', key],
      ['/v0/events/not-a-uuid', key],
      ['/v0/events/', key],
      [`/v0/events/${eventId}/`, key],
      ['/v0/events%3Flimit=2', key],
      ['/v0/events?limit=30', { ...key, 'accept-encoding': 'deflate' }],
      ['/api/nowhere/fetchMarkets', key],
      ['/api/mock/noSuchMethod', key],
      ['/api/mock/fetchMarkets?limit=-1', key],
      ['/api/mock/createOrder', key],
      ['/api/mock/fetchMarkets?limit=2&offset=1', { ...key, 'accept-encoding': 'deflate' }],
      ['//api/mock/fetchMarkets?limit=2', key],
      ['/api/mock/fetchMarkets/', key],
    ];
    for (const [path, headers] of sent) {
      const { reachedHapi } = await sameAnswer(started, path, headers);
      expect(reachedHapi, path).toBe(true);
    }
  });

  test('a missing, unknown or revoked key is refused as hapi refuses it, on every kind of path', async () => {
    const { key: revoked, record } = await started.app.keys.create('soon revoked');
    await started.app.keys.revoke(record.id);
    const presented: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${revoked}` },
      { 'x-api-key': revoked },
    ];
    for (const headers of presented) {
      for (const [, path] of valid()) {
        const { lean } = await sameAnswer(started, path, headers);
        expect(lean.status, path).toBe(401);
      }
    }
  });

  test('each answer is counted once in the request metrics, under its route', async () => {
    const count = async (labels: string) => {
      const metrics = (await fromHapi(started.app, '/metrics', key)).bytes.toString('utf8');
      const line = new RegExp(`predgate_http_requests_total\\{${labels.replace(/[{}]/g, '\\$&')}\\} (\\d+)`).exec(metrics);
      return Number(line?.[1] ?? 0);
    };
    const counted: Array<[string, string]> = [
      [`/v0/events/${eventId}`, 'exchange="none",method="/v0/events/{id}",status="200"'],
      [`/api/mock/fetchOrderBook?outcomeId=${encodeURIComponent(outcomeId)}`, 'exchange="mock",method="fetchOrderBook",status="200"'],
      ['/api/mock/fetchOrderBook?outcomeId=no-such-outcome', 'exchange="mock",method="fetchOrderBook",status="404"'],
    ];
    for (const [path, labels] of counted) {
      const before = await count(labels);
      await overSocket(started.origin, path, key);
      expect(await count(labels), path).toBe(before + 1);
    }
  });
});

describe('the lean path and the request budget', () => {
  test('a spent budget is refused once, with the budget headers, and charged once per request', async () => {
    const started = await listeningApp({ config: { rateLimit: { requests: 3, windowSeconds: 60 } } });
    try {
      const key = { authorization: `Bearer ${apiKey}` };
      const remaining: string[] = [];
      for (let sent = 0; sent < 3; sent += 1) {
        const answer = await overSocket(started.origin, '/v0/events?limit=1', key);
        expect(answer.status).toBe(200);
        remaining.push(String(answer.headers['ratelimit-remaining']));
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await overSocket(started.origin, '/v0/events?limit=1', key);
      const hapi = await fromHapi(started.app, '/v0/events?limit=1', key);
      expect(refused.status).toBe(429);
      expect(answerHeaders(refused.headers)).toEqual(answerHeaders(hapi.headers));
      expect(refused.headers).toMatchObject({ 'ratelimit-remaining': '0', 'retry-after': expect.any(String) });
      expect(decoded(refused)).toBe(decoded(hapi));
    } finally {
      await started.app.stop();
    }
  });
});
