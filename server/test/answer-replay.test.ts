import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request as undiciRequest } from 'undici';
import { apiKey, listeningApp, now } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * Requests hapi answered from the stored-answer cache are answered again
 * from Node's listener when they come back. These tests send real requests to
 * a gateway on 127.0.0.1 (`inject` never passes the listener) and count the
 * requests hapi itself sees, to tell a replayed answer from one hapi made.
 */
interface Sent {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

const compressed = { 'accept-encoding': 'gzip, deflate, br' };
const fetchMarkets: Sent = { method: 'POST', path: '/api/mock/fetchMarkets', body: '{"args":[{"limit":4}]}', headers: { 'content-type': 'application/json' } };

async function send(origin: string, sent: Sent, key = apiKey): Promise<Received> {
  const response = await undiciRequest(`${origin}${sent.path}`, {
    method: sent.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...compressed, ...sent.headers },
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  });
  return { status: response.statusCode, headers: response.headers, bytes: Buffer.from(await response.body.arrayBuffer()) };
}

/** The headers that belong to the answer, not to the moment or the request's place in its key's budget. */
function withoutDate(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, 'ratelimit-remaining': _remaining, 'ratelimit-reset': _reset, ...rest } = headers;
  return rest;
}

describe('a cached answer replayed below hapi', () => {
  let app: TestApp;
  let origin: string;
  let seenByHapi: () => number;
  let clock = now;

  beforeAll(async () => {
    ({ app, origin, seenByHapi } = await listeningApp({ clock: { now: () => clock } }));
  });
  afterAll(() => app.stop());

  /** Sends a request until hapi has answered it from the cache (the handler builds it, the early step sends it). */
  async function remembered(sent: Sent): Promise<Received> {
    await send(origin, sent);
    return send(origin, sent);
  }

  // Router pages and pages of events or markets go in gzip to a client that takes it, stitched from their events'
  // or markets' pieces.
  const requests: Array<[string, Sent, string]> = [
    ['a pass-through POST', fetchMarkets, 'gzip'],
    ['a pass-through GET', { path: '/api/mock/fetchEvents?limit=3' }, 'gzip'],
    ['a Router page', { path: '/v0/events?limit=7&offset=2' }, 'gzip'],
  ];

  test.each(requests)('%s comes back without reaching hapi, byte for byte what hapi sent, headers included', async (_title, sent, coding) => {
    const fromHapi = await remembered(sent);
    expect(fromHapi.status).toBe(200);
    const before = seenByHapi();
    const replayed = await send(origin, sent);
    expect(seenByHapi()).toBe(before);
    expect(replayed.status).toBe(200);
    expect(withoutDate(replayed.headers)).toEqual(withoutDate(fromHapi.headers));
    expect(replayed.headers).toMatchObject({ 'content-encoding': coding, vary: 'accept-encoding' });
    // The budget headers are the replayed request's own.
    expect(Number(replayed.headers['ratelimit-remaining'])).toBe(Number(fromHapi.headers['ratelimit-remaining']) - 1);
    expect(replayed.bytes.equals(fromHapi.bytes)).toBe(true);
  });

  test('an answer sent as it is, to a client without accept-encoding or under 1 KiB, is replayed too', async () => {
    for (const sent of [{ path: '/api/mock/fetchEvents?limit=2', headers: { 'accept-encoding': 'identity' } }, { path: '/v0/events?limit=3&offset=1000000' }]) {
      const fromHapi = await remembered(sent);
      expect(fromHapi.headers['content-encoding']).toBeUndefined();
      const before = seenByHapi();
      const replayed = await send(origin, sent);
      expect(seenByHapi()).toBe(before);
      expect(withoutDate(replayed.headers)).toEqual(withoutDate(fromHapi.headers));
      expect(replayed.bytes.equals(fromHapi.bytes)).toBe(true);
      expect(JSON.parse(replayed.bytes.toString('utf8'))).toHaveProperty('data');
    }
  });

  test('a Router event by id is replayed too', async () => {
    const page = await send(origin, { path: '/v0/events?limit=1', headers: { 'accept-encoding': 'identity' } });
    const id = (JSON.parse(page.bytes.toString('utf8')) as { data: Array<{ id: string }> }).data[0]!.id;
    const sent = { path: `/v0/events/${id}` };
    const fromHapi = await remembered(sent);
    const before = seenByHapi();
    expect((await send(origin, sent)).bytes.equals(fromHapi.bytes)).toBe(true);
    expect(seenByHapi()).toBe(before);
  });

  test('only the same form is replayed: another encoding, content type, body or URL goes to hapi', async () => {
    await remembered(fetchMarkets);
    const others: Sent[] = [
      { ...fetchMarkets, headers: { ...fetchMarkets.headers, 'accept-encoding': 'gzip' } },
      { ...fetchMarkets, headers: { 'content-type': 'application/json; charset=utf-8' } },
      { ...fetchMarkets, body: '{"args":[{"limit":4}]} ' },
      { ...fetchMarkets, body: '{"args":[{"limit":5}]}' },
      { ...fetchMarkets, path: '/api/mock/fetchMarkets/' },
    ];
    for (const sent of others) {
      const before = seenByHapi();
      const answer = await send(origin, sent);
      expect(answer.status).toBe(200);
      expect(seenByHapi()).toBe(before + 1);
    }
    const gzip = await send(origin, others[0]!);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  test('a request hapi would refuse is never replayed: another method, or a content type the route does not take', async () => {
    await remembered(fetchMarkets);
    const text = await send(origin, { ...fetchMarkets, headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const put = await send(origin, { ...fetchMarkets, method: 'PUT' as 'POST' });
    expect(put.status).toBe(405);
  });

  test('the API key is checked on every replayed request', async () => {
    await remembered(fetchMarkets);
    const refused = await send(origin, fetchMarkets, 'not-the-key-000000');
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
    const { key, record } = await app.keys.create('short-lived');
    expect((await send(origin, fetchMarkets, key)).status).toBe(200);
    await app.keys.revoke(record.id);
    expect((await send(origin, fetchMarkets, key)).status).toBe(401);
  });

  test('a new catalog generation is not replayed the page of the one before', async () => {
    // A POST: GETs the lean path answers in front of the lane.
    const sent = { ...fetchMarkets, body: '{"args":[{"limit":2,"offset":1}]}' };
    await remembered(sent);
    await app.catalog.sweep('mock');
    const before = seenByHapi();
    expect((await send(origin, sent)).status).toBe(200);
    expect(seenByHapi()).toBe(before + 1);
  });

  test('a stale catalog is not replayed: the request goes to hapi, which asks the venue', async () => {
    const sent = { ...fetchMarkets, body: '{"args":[{"limit":2}]}' };
    await remembered(sent);
    clock += 365 * 24 * 3600 * 1000;
    try {
      const before = seenByHapi();
      expect((await send(origin, sent)).status).toBe(200);
      expect(seenByHapi()).toBe(before + 1);
    } finally {
      clock = now;
    }
  });

  test('a page that a new generation sends in another coding is not replayed under the old headers', async () => {
    const day = 24 * 3600 * 1000;
    const openEvents = async (at: number) => {
      clock = at;
      await app.catalog.sweep('mock');
      const page = await send(origin, { path: '/v0/events?limit=1', headers: { 'accept-encoding': 'identity' } });
      return (JSON.parse(page.bytes.toString('utf8')) as { meta: { total: number } }).meta.total;
    };
    try {
      // The mock venue's catalog changes by the day: find two days with different counts of open events.
      const [first, second] = [await openEvents(now + day), await openEvents(now + 2 * day)];
      expect(first).not.toBe(second);
      const [fuller, emptier] = first > second ? [now + day, now + 2 * day] : [now + 2 * day, now + day];
      // One event past the emptier day's last: compressed on the fuller day, an empty page sent as it is on the other.
      const sent = { path: `/v0/events?limit=1&offset=${Math.min(first, second)}` };
      clock = fuller;
      await app.catalog.sweep('mock');
      expect((await remembered(sent)).headers['content-encoding']).toBe('gzip');
      clock = emptier;
      await app.catalog.sweep('mock');
      for (let index = 0; index < 3; index += 1) {
        const answer = await send(origin, sent);
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(JSON.parse(answer.bytes.toString('utf8'))).toMatchObject({ data: [] });
      }
    } finally {
      clock = now;
      await app.catalog.sweep('mock');
    }
  });

  test('replayed answers count as requests and as catalog answers', async () => {
    await remembered(fetchMarkets);
    const metric = async (name: string, labels: string) => {
      const text = (await send(origin, { path: '/metrics', headers: { 'accept-encoding': 'identity' } })).bytes.toString('utf8');
      return Number(new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    };
    const requests = () => metric('predgate_http_requests_total', 'exchange="mock",method="fetchMarkets",status="200"');
    const answers = () => metric('predgate_catalog_answers_total', 'venue="mock",method="fetchMarkets"');
    const [requestsBefore, answersBefore, seenBefore] = [await requests(), await answers(), seenByHapi()];
    for (let index = 0; index < 3; index += 1) expect((await send(origin, fetchMarkets)).status).toBe(200);
    expect(seenByHapi()).toBe(seenBefore);
    expect(await requests()).toBe(requestsBefore + 3);
    expect(await answers()).toBe(answersBefore + 3);
  });

  test('a body that arrives after its headers is left for hapi to read, whole', async () => {
    const fromHapi = await remembered(fetchMarkets);
    const before = seenByHapi();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(app.server.info.port as number, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
      socket.write(
        `POST ${fetchMarkets.path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${apiKey}\r\naccept-encoding: gzip, deflate, br\r\n` +
          `content-type: application/json\r\ncontent-length: ${fetchMarkets.body!.length}\r\nconnection: close\r\n\r\n`,
      );
      setTimeout(() => socket.write(fetchMarkets.body!), 50);
    });
    expect(raw.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(Buffer.from(raw.slice(raw.indexOf('\r\n\r\n') + 4), 'latin1').equals(fromHapi.bytes)).toBe(true);
    expect(seenByHapi()).toBe(before + 1);
  });

  test('a chunked or compressed request body goes to hapi', async () => {
    const fromHapi = await remembered(fetchMarkets);
    const bodies: Array<[Record<string, string>, Readable | Buffer]> = [
      [{}, Readable.from([Buffer.from(fetchMarkets.body!)])],
      [{ 'content-encoding': 'gzip' }, gzipSync(fetchMarkets.body!)],
    ];
    for (const [headers, body] of bodies) {
      const before = seenByHapi();
      const response = await undiciRequest(`${origin}${fetchMarkets.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, ...compressed, 'content-type': 'application/json', ...headers },
        body,
      });
      expect(response.statusCode).toBe(200);
      expect(Buffer.from(await response.body.arrayBuffer()).equals(fromHapi.bytes)).toBe(true);
      expect(seenByHapi()).toBe(before + 1);
    }
  });
});

describe('the replay lane and the request budget', () => {
  let app: TestApp;
  let origin: string;
  let seenByHapi: () => number;

  beforeAll(async () => {
    ({ app, origin, seenByHapi } = await listeningApp({ config: { rateLimit: { requests: 4, windowSeconds: 60 } } }));
  });
  afterAll(() => app.stop());

  test('replayed answers spend the budget; past it hapi answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    const seen: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      const answer = await send(origin, fetchMarkets);
      statuses.push(answer.status);
      remaining.push(`${answer.headers['ratelimit-limit']}:${answer.headers['ratelimit-remaining']}`);
      seen.push(seenByHapi());
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Replayed or not, answered or refused, each says where the key's budget stands.
    expect(remaining).toEqual(['4:3', '4:2', '4:1', '4:0', '4:0', '4:0']);
    // The first two built and cached the answer, the next two were replayed, the refused ones went to hapi.
    expect(seen).toEqual([1, 2, 2, 2, 3, 4]);
    const refused = await send(origin, fetchMarkets);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
  });
});

describe('with debug logging', () => {
  let app: TestApp;
  let origin: string;
  let seenByHapi: () => number;

  beforeAll(async () => {
    ({ app, origin, seenByHapi } = await listeningApp({ logLevel: 'debug' }));
  });
  afterAll(() => app.stop());

  test('every request goes to hapi, which logs each one', async () => {
    for (let index = 0; index < 4; index += 1) expect((await send(origin, fetchMarkets)).status).toBe(200);
    expect(seenByHapi()).toBe(4);
    expect(app.logs.filter((line) => line.includes('"path":"/api/mock/fetchMarkets"') && line.includes('"statusCode":200'))).toHaveLength(4);
  });
});
