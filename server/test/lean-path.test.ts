import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request as undiciRequest } from 'undici';
import { apiKey, listeningApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * Valid GETs, and pass-through POSTs with a small JSON body, are answered in
 * front of hapi, by each route's lean form. These
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

/** A POST's body, sent as given (a string), or a GET when undefined. */
type Body = string | Buffer | undefined;

async function overSocket(origin: string, path: string, headers: Record<string, string>, body?: Body): Promise<Answer> {
  const response = await undiciRequest(`${origin}${path}`, { headers, ...(body === undefined ? {} : { method: 'POST', body }) });
  return { status: response.statusCode, headers: response.headers, bytes: Buffer.from(await response.body.arrayBuffer()) };
}

async function fromHapi(app: TestApp, path: string, headers: Record<string, string>, body?: Body): Promise<Answer> {
  const response = await app.server.inject({ url: path, headers, ...(body === undefined ? {} : { method: 'POST', payload: body }) });
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

/** Sends `path` (a POST of `body` when given) through the lean path, then to hapi, and expects one answer; says whether hapi saw the first. */
/** The keys a request may present and be refused for: none, an unknown one, and one revoked (as a bearer token and as `x-api-key`). */
async function refusedKeys(app: TestApp, name: string): Promise<Array<Record<string, string>>> {
  const { key: revoked, record } = await app.keys.create(name);
  await app.keys.revoke(record.id);
  return [{}, { authorization: 'Bearer not-a-key' }, { authorization: `Bearer ${revoked}` }, { 'x-api-key': revoked }];
}

async function sameAnswer(started: Started, path: string, headers: Record<string, string>, body?: Body): Promise<{ lean: Answer; reachedHapi: boolean }> {
  const before = started.seenByHapi();
  const lean = await overSocket(started.origin, path, headers, body);
  const reachedHapi = started.seenByHapi() > before;
  const hapi = await fromHapi(started.app, path, headers, body);
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
  let marketId: string;
  const key = { authorization: `Bearer ${apiKey}` };

  beforeAll(async () => {
    started = await listeningApp();
    const page = await fromHapi(started.app, '/v0/events?limit=1', key);
    eventId = (JSON.parse(page.bytes.toString('utf8')) as { data: Array<{ id: string }> }).data[0]!.id;
    const markets = await fromHapi(started.app, '/api/mock/fetchMarkets?limit=1', key);
    const market = (JSON.parse(markets.bytes.toString('utf8')) as { data: Array<{ marketId: string; outcomes: Array<{ outcomeId: string }> }> }).data[0]!;
    outcomeId = market.outcomes[0]!.outcomeId;
    marketId = market.marketId;
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
    for (const headers of await refusedKeys(started.app, 'soon revoked')) {
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

  describe('POSTs as pmxt clients send them', () => {
    const json = { ...key, 'content-type': 'application/json' };
    const validPosts = (): Array<[string, string, string]> => [
      ['a catalog-served lookup', '/api/mock/fetchEvent', '{"args":[{"eventId":"mock-e1"}]}'],
      ['a catalog-served market', '/api/mock/fetchMarket', JSON.stringify({ args: [{ marketId }] })],
      ['a catalog-served page', '/api/mock/fetchMarkets', '{"args":[{"limit":2,"offset":1}]}'],
      ['a large catalog-served page', '/api/mock/fetchEvents', '{"args":[{"limit":20}]}'],
      ['a live order book', '/api/mock/fetchOrderBook', JSON.stringify({ args: [outcomeId] })],
      ['what the gateway knows of a venue', '/api/mock/describe', '{"args":[]}'],
    ];

    test.each(['identity', compressed, 'br', 'gzip'])('valid POSTs (accept-encoding %s) are answered without hapi, as hapi answers them', async (encoding) => {
      for (const [title, path, body] of validPosts()) {
        const { lean, reachedHapi } = await sameAnswer(started, path, { ...json, 'accept-encoding': encoding }, body);
        expect(lean.status, title).toBe(200);
        expect(reachedHapi, title).toBe(false);
      }
    });

    test('the charset spelled out is still JSON read here', async () => {
      const { lean, reachedHapi } = await sameAnswer(
        started,
        '/api/mock/fetchEvent',
        { ...key, 'content-type': 'application/json; charset=UTF-8' },
        '{"args":[{"eventId":"mock-e1"}]}',
      );
      expect(lean.status).toBe(200);
      expect(reachedHapi).toBe(false);
    });

    test('a call the venue refuses is refused on the lean path, as hapi refuses it, without the credentials it carried', async () => {
      const secret = '0xdeadbeefcafe-lean';
      const body = JSON.stringify({ args: [outcomeId.replace(/./g, 'x')], credentials: { privateKey: secret } });
      const { lean, reachedHapi } = await sameAnswer(started, '/api/mock/fetchOrderBook', json, body);
      expect(lean.status).toBe(404);
      expect(reachedHapi).toBe(false);
      expect(lean.bytes.toString('utf8')).not.toContain(secret);
      expect(started.app.logs.join('\n')).not.toContain(secret);
    });

    test('bodies hapi reads or refuses in its own way go on to hapi, which answers as ever', async () => {
      // A computation whose book may carry members of any shape: only the depth bound refuses this one.
      const deep = `{"args":[{"bids":[{"price":0.4,"size":10}],"asks":[],"note":${'['.repeat(70)}${']'.repeat(70)}},"buy",5]}`;
      const sent: Array<[string, string, Record<string, string>, Body]> = [
        ['bad JSON', '/api/mock/fetchEvent', json, '{"args":[{"eventId":'],
        ['JSON null', '/api/mock/fetchEvent', json, 'null'],
        ['an empty body', '/api/mock/fetchEvent', json, ''],
        ['a prototype key', '/api/mock/fetchEvent', json, '{"args":[{"eventId":"mock-e1","__proto__":{"x":1}}]}'],
        ['a prototype key in escapes', '/api/mock/fetchEvent', json, '{"args":[{"eventId":"mock-e1","\\u005f_proto__":{"x":1}}]}'],
        ['nested too deep', '/api/mock/getExecutionPrice', json, deep],
        ['a body past the lean bound', '/api/mock/fetchEvent', json, JSON.stringify({ args: [{ eventId: 'mock-e1' }], pad: 'x'.repeat(20_000) })],
        ['a body past the route bound', '/api/mock/fetchEvent', json, Buffer.alloc(5 * 1024 * 1024 + 1, 0x20)],
        ['another content type', '/api/mock/fetchEvent', { ...key, 'content-type': 'text/plain' }, '{"args":[{"eventId":"mock-e1"}]}'],
        ['no content type', '/api/mock/fetchEvent', key, '{"args":[{"eventId":"mock-e1"}]}'],
        ['an unknown exchange', '/api/nowhere/fetchEvent', json, '{"args":[{"eventId":"mock-e1"}]}'],
        ['an unknown method', '/api/mock/noSuchMethod', json, '{"args":[]}'],
        ['a bad argument', '/api/mock/fetchMarkets', json, '{"args":[{"limit":-1}]}'],
        ['a method no venue offers', '/api/mock/callApi', json, '{"args":[]}'],
        ['a Router path', '/v0/events', json, '{"limit":2}'],
      ];
      for (const [title, path, headers, body] of sent) {
        const { lean, reachedHapi } = await sameAnswer(started, path, headers, body);
        expect(reachedHapi, title).toBe(true);
        expect(lean.status, title).not.toBe(500);
      }
    });

    test('a body sent in chunks, compressed, or after its headers is read by hapi, whole', async () => {
      const body = '{"args":[{"eventId":"mock-e1"}]}';
      const hapi = await fromHapi(started.app, '/api/mock/fetchEvent', json, body);
      const sent: Array<[Record<string, string>, Readable | Buffer]> = [
        [{}, Readable.from([Buffer.from(body)])],
        [{ 'content-encoding': 'gzip' }, gzipSync(body)],
      ];
      for (const [headers, payload] of sent) {
        const before = started.seenByHapi();
        const answer = await undiciRequest(`${started.origin}/api/mock/fetchEvent`, { method: 'POST', headers: { ...json, ...headers }, body: payload });
        expect(answer.statusCode).toBe(200);
        expect(Buffer.from(await answer.body.arrayBuffer()).equals(hapi.bytes)).toBe(true);
        expect(started.seenByHapi()).toBe(before + 1);
      }
      // A body that was not there when the request was made is left for hapi to read.
      const late = started.seenByHapi();
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(started.origin).port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
        const head =
          `POST /api/mock/fetchEvent HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${apiKey}\r\n` +
          `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
        // The body goes out once the server has read the headers and made the request: it arrives in a later read.
        started.app.server.listener.once('request', () => socket.write(body));
        socket.write(head);
      });
      expect(raw.startsWith('HTTP/1.1 200 OK')).toBe(true);
      expect(Buffer.from(raw.slice(raw.indexOf('\r\n\r\n') + 4), 'latin1').equals(hapi.bytes)).toBe(true);
      expect(started.seenByHapi()).toBe(late + 1);
    });

    test('a missing, unknown or revoked key is refused as hapi refuses it', async () => {
      for (const headers of await refusedKeys(started.app, 'soon revoked, POST')) {
        for (const [title, path, body] of validPosts()) {
          const { lean } = await sameAnswer(started, path, { ...headers, 'content-type': 'application/json' }, body);
          expect(lean.status, title).toBe(401);
        }
      }
    });

    test('each answer is counted once in the request metrics, under its route', async () => {
      const labels = 'exchange="mock",method="fetchEvent",status="200"';
      const count = async () => {
        const metrics = (await fromHapi(started.app, '/metrics', key)).bytes.toString('utf8');
        return Number(new RegExp(`predgate_http_requests_total\\{${labels}\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
      };
      const before = await count();
      await overSocket(started.origin, '/api/mock/fetchEvent', json, '{"args":[{"eventId":"mock-e1"}]}');
      expect(await count()).toBe(before + 1);
    });
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
      const body = '{"args":[{"eventId":"mock-e1"}]}';
      const post = { ...key, 'content-type': 'application/json' };
      const refusedPost = await overSocket(started.origin, '/api/mock/fetchEvent', post, body);
      const hapiPost = await fromHapi(started.app, '/api/mock/fetchEvent', post, body);
      expect(refusedPost.status).toBe(429);
      expect(answerHeaders(refusedPost.headers)).toEqual(answerHeaders(hapiPost.headers));
      expect(decoded(refusedPost)).toBe(decoded(hapiPost));
    } finally {
      await started.app.stop();
    }
  });
});
