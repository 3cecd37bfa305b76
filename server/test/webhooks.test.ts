import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@predgate/core/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { WebhookSettings } from '../src/webhooks/service.js';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Receiver } from './webhook-receiver.js';
import { expectedKinds, openScenario, scenarioEvents, scenarioKey } from './webhook-scenario.js';

const otherKey = 'other-key-0123456789abcdef';
/** Retries within milliseconds, so faults are recovered from as soon as the receiver allows. */
const fastRetries = { allowHttp: true, allowedNetworks: ['127.0.0.1'], firstRetryMs: 1, maxRetryMs: 20, timeoutMs: 1_000 };

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await testApp({ config: { apiKeys: [apiKey, otherKey], webhooks: { ...defaults(), ...fastRetries } } });
});
afterAll(() => app.stop());
beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterEach(() => receiver.stop());

function defaults(): WebhookSettings {
  return {
    allowHttp: false,
    allowedNetworks: [],
    maxPerKey: 3,
    timeoutMs: 5_000,
    concurrency: 16,
    firstRetryMs: 5_000,
    maxRetryMs: 3_600_000,
    retryForHours: 24,
  };
}

async function subscribe(body: unknown, key = apiKey) {
  const response = await app.call({ method: 'POST', url: '/v0/webhooks', payload: body as object, headers: { authorization: `Bearer ${key}` } });
  return {
    status: response.statusCode,
    body: JSON.parse(response.payload) as { data: { id: string; secret: string }; error: { code: string; message: string } },
  };
}

async function subscribed(body: object = {}): Promise<string> {
  const { status, body: answer } = await subscribe({ url: receiver.url, events: [{ kind: 'market.resolved' }], ...body });
  expect(status, JSON.stringify(answer)).toBe(201);
  receiver.secret = answer.data.secret;
  return answer.data.id;
}

async function remove(id: string) {
  await app.call({ method: 'DELETE', url: `/v0/webhooks/${id}` });
}

const deliveries = async (id: string) =>
  JSON.parse((await app.call({ url: `/v0/webhooks/${id}/deliveries` })).payload) as {
    data: Array<{ id: string; state: string; attempts: Array<{ status?: number; error?: string }> }>;
  };
/** The deliveries as the service holds them, for conditions waited on. */
const held = (target: TestApp, id: string) => target.webhooks.service.deliveriesOf(target.keys.verify(apiKey)!.id, id, { limit: 100, offset: 0 }).items;

describe('/v0/webhooks', () => {
  test('subscribes, shows the secret once, lists per key, deletes', async () => {
    const created = await subscribe({
      url: receiver.url,
      description: 'resolutions',
      events: [{ kind: 'market.resolved', filter: { sourceExchange: 'mock' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { id } = created.body.data;
    const listed = JSON.parse((await app.call({ url: '/v0/webhooks' })).payload) as { data: Array<Record<string, unknown>> };
    expect(listed.data).toEqual([
      {
        id,
        url: receiver.url,
        description: 'resolutions',
        events: [{ kind: 'market.resolved', filter: { sourceExchange: 'mock' } }],
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    // Another key sees none of it.
    const other = await app.call({ url: `/v0/webhooks/${id}`, headers: { authorization: `Bearer ${otherKey}` } });
    expect(other.statusCode).toBe(404);
    expect(JSON.parse((await app.call({ url: '/v0/webhooks', headers: { authorization: `Bearer ${otherKey}` } })).payload)).toEqual({ data: [] });

    expect((await app.call({ method: 'DELETE', url: `/v0/webhooks/${id}` })).statusCode).toBe(204);
    expect((await app.call({ url: `/v0/webhooks/${id}` })).statusCode).toBe(404);
    expect((await app.call({ method: 'PUT', url: '/v0/webhooks' })).headers.allow).toBe('GET, POST');
    expect((await app.server.inject({ url: '/v0/webhooks' })).statusCode).toBe(401);
  });

  test('every argument is bounded and checked, with the parameter named', async () => {
    const refused = async (body: unknown, message: RegExp) => {
      const { status, body: answer } = await subscribe(body);
      expect(status, JSON.stringify(answer)).toBe(400);
      expect(answer.error.code).toBe('VALIDATION_ERROR');
      expect(answer.error.message).toMatch(message);
    };
    await refused({ url: receiver.url, events: [] }, /events/);
    await refused({ url: receiver.url, events: [{ kind: 'market.exploded' }] }, /kind/);
    await refused({ url: receiver.url, events: [{ kind: 'price.crossed', filter: { sourceExchange: 'mock', outcomeId: 'x', level: 2 } }] }, /level/);
    await refused({ url: receiver.url, events: [{ kind: 'book.changed', filter: {} }] }, /sourceExchange/);
    await refused({ url: receiver.url, events: Array.from({ length: 11 }, () => ({ kind: 'market.closed' })) }, /events/);
    await refused({ url: receiver.url, events: [{ kind: 'market.created', filter: { q: 'x'.repeat(5_000) } }] }, /q/);
    await refused({ url: `https://example.com/${'x'.repeat(2_100)}`, events: [{ kind: 'market.closed' }] }, /2048/);
    await refused({ url: 'ftp://example.com/', events: [{ kind: 'market.closed' }] }, /https/);
    await refused({ url: 'http://user:pw@127.0.0.1/', events: [{ kind: 'market.closed' }] }, /credentials/);
    // Private, loopback and link-local addresses stay refused unless the operator allows their range.
    for (const address of ['10.1.2.3', '127.0.0.2', '169.254.169.254', '192.168.1.1', '[::1]', '[fe80::1]', '[::ffff:10.0.0.1]']) {
      await refused({ url: `http://${address}/hook`, events: [{ kind: 'market.closed' }] }, /private or reserved/);
    }
    const ids = [await subscribed(), await subscribed(), await subscribed()];
    await refused({ url: receiver.url, events: [{ kind: 'market.closed' }] }, /already has 3 webhook subscriptions/);
    for (const id of ids) await remove(id);
  });

  test('the test endpoint sends a ping signed as Standard Webhooks, verified by the library', async () => {
    const id = await subscribed();
    const sent = await app.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
    expect(sent.statusCode).toBe(202);
    await until(() => receiver.received.length === 1, 'the ping');
    const [ping] = receiver.received;
    expect(receiver.verifies(ping!)).toBe(true);
    expect(ping!.headers).toMatchObject({
      'webhook-id': expect.stringMatching(/^msg_/),
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    expect(JSON.parse(ping!.body)).toMatchObject({ type: 'webhook.ping', data: { subscriptionId: id } });
    // A wrong secret does not verify.
    const secret = receiver.secret;
    receiver.secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(receiver.verifies(ping!)).toBe(false);
    receiver.secret = secret;
    await app.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
    await until(() => receiver.received.length === 2, 'the second ping');
    expect(receiver.received[1]!.id).not.toBe(ping!.id);
    await until(() => held(app, id).every((delivery) => delivery.state === 'delivered'), 'both recorded');
    expect((await deliveries(id)).data.map((delivery) => delivery.attempts[0]!.status)).toEqual([204, 204]);
    await remove(id);
  });
});

describe('delivery under faults', () => {
  test('answers of 500 are retried until one is 2xx, each attempt recorded', async () => {
    const id = await subscribed();
    receiver.answer = ({ count }) => (count < 2 ? 500 : 200);
    await app.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
    await until(() => receiver.acknowledged().size === 1, 'acknowledged');
    await until(() => held(app, id)[0]!.state === 'delivered', 'recorded');
    const recorded = (await deliveries(id)).data[0]!;
    expect(recorded.id).toBe(receiver.received[0]!.id);
    expect(recorded.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
    expect(new Set(receiver.received.map((entry) => entry.id)).size).toBe(1);
    await remove(id);
  });

  test('a receiver that times out is tried again', async () => {
    const timeouts = await testApp({ config: { webhooks: { ...defaults(), ...fastRetries, timeoutMs: 200 } } });
    try {
      receiver.answer = ({ count }) => (count === 0 ? 'hang' : 204);
      const created = await timeouts.call({ method: 'POST', url: '/v0/webhooks', payload: { url: receiver.url, events: [{ kind: 'market.closed' }] } });
      const { id, secret } = (JSON.parse(created.payload) as { data: { id: string; secret: string } }).data;
      receiver.secret = secret;
      await timeouts.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
      await until(() => receiver.acknowledged().size === 1, 'acknowledged after a timeout', 5_000);
      const attempts = () => held(timeouts, id)[0]!.attempts;
      await until(() => attempts().length === 2, 'both attempts recorded');
      expect(attempts()[0]!.error).toMatch(/timed out|timeout/i);
      expect(attempts()[1]!.status).toBe(204);
    } finally {
      await timeouts.stop();
    }
  });

  test('a receiver down for a while gets the notification once it is back', async () => {
    const id = await subscribed();
    const port = receiver.port;
    await receiver.stop();
    await app.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
    await until(() => (held(app, id)[0]?.attempts.length ?? 0) >= 3, 'failed attempts while down');
    expect((await deliveries(id)).data[0]!.attempts[0]!.error).toMatch(/ECONNREFUSED/);
    await receiver.start(port);
    await until(() => receiver.acknowledged().size === 1, 'delivered once back', 5_000);
    expect(receiver.verifies(receiver.received[0]!)).toBe(true);
    await remove(id);
  });

  test('410 from the receiver ends the subscription', async () => {
    const id = await subscribed();
    receiver.answer = () => 410;
    await app.call({ method: 'POST', url: `/v0/webhooks/${id}/test` });
    await until(() => receiver.received.length === 1, 'the ping');
    await until(() => app.webhooks.service.list(app.keys.verify(apiKey)!.id).length === 0, 'unsubscribed');
    expect((await app.call({ url: `/v0/webhooks/${id}` })).statusCode).toBe(404);
  });
});

describe('in the gateway', () => {
  test('book.changed watches the outcome through the streaming hub, shared with /ws', async () => {
    const markets = JSON.parse((await app.call({ url: '/api/mock/fetchMarkets?limit=1' })).payload) as {
      data: Array<{ outcomes: Array<{ outcomeId: string }> }>;
    };
    const outcomeId = markets.data[0]!.outcomes[0]!.outcomeId;
    const id = await subscribed({ events: [{ kind: 'book.changed', filter: { sourceExchange: 'mock', outcomeId, throttleSeconds: 60 } }] });
    await until(() => app.streams.hub.keys.some((key) => key.includes(outcomeId)), 'the hub watching the outcome');
    await until(() => receiver.acknowledged().size === 1, 'the first book');
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: 'book.changed',
      data: { sourceExchange: 'mock', outcomeId, book: { bids: expect.any(Array) } },
    });
    await remove(id);
    await until(() => app.streams.hub.size === 0, 'the watch closed with the subscription');
  });
});

describe('a scripted sweep and book stream', () => {
  test('every notification reaches the receiver exactly once, after retries, each verified', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-webhooks-'));
    const scenario = await openScenario(dir, { ...defaults(), ...fastRetries });
    try {
      const { subscription, secret } = await scenario.webhooks.subscribe(scenarioKey, { url: receiver.url, events: scenarioEvents });
      receiver.secret = secret;
      // Every notification fails its first attempt.
      receiver.answer = ({ count }) => (count === 0 ? 503 : 200);
      await scenario.play();
      await until(() => receiver.acknowledged().size === expectedKinds.length, 'every notification acknowledged', 5_000);
      // Diffing the same sweep again finds the same changes, which are not sent twice.
      const [latest] = scenario.catalog.status();
      await scenario.sweeps.sweepCommitted('scripted', latest!.lastSweep!.sweepId);
      expect([...receiver.acknowledged().values()].every((count) => count === 1)).toBe(true);
      expect(receiver.received.every((entry) => receiver.verifies(entry))).toBe(true);
      const kinds = [...receiver.acknowledged().keys()].map(
        (id) => (JSON.parse(receiver.received.find((entry) => entry.id === id)!.body) as { type: string }).type,
      );
      expect(kinds.sort()).toEqual([...expectedKinds].sort());
      const created = receiver.received.find((entry) => entry.body.includes('"market.created"'))!;
      expect(JSON.parse(created.body)).toMatchObject({
        data: { sourceExchange: 'scripted', market: { marketId: 'm3' }, event: { title: 'Bitcoin above 100k' } },
      });
      const crossings = receiver.received
        .filter((entry) => entry.body.includes('"price.crossed"'))
        .map((entry) => JSON.parse(entry.body) as { data: { source: string; price: number } });
      expect(crossings.map((crossing) => crossing.data.source).sort()).toEqual(['stream', 'stream', 'sweep', 'sweep']);
      const states = () => scenario.webhooks.deliveriesOf(scenarioKey, subscription.id, { limit: 100, offset: 0 }).items.map((delivery) => delivery.state);
      await until(() => states().every((state) => state === 'delivered'), 'every delivery recorded');
      expect(states()).toHaveLength(expectedKinds.length);
    } finally {
      await scenario.close();
    }
  });
});
