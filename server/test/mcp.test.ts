import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { coreMethods } from '@predgate/core';
import type { Event } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
let url: URL;
const clients: Client[] = [];

beforeAll(async () => {
  app = await testApp({ config: { port: 0, host: '127.0.0.1' } });
  await app.catalog.sweep('mock');
  await app.server.start();
  url = new URL(`${app.server.info.uri}/mcp`);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => app.stop());

async function connect(key: string | null = apiKey): Promise<Client> {
  const client = new Client({ name: 'predgate-test', version: '1.0.0' });
  clients.push(client);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } });
  await client.connect(transport);
  return client;
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;

describe('/mcp with the SDK client', () => {
  test('lists one tool per read method of the method list, plus the Router search; trading methods stay off by default', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('searchEvents');
    for (const [name, declaration] of Object.entries(coreMethods)) {
      const isRead = !declaration.credentials && !('stream' in declaration) && !name.startsWith('unwatch');
      expect(names.includes(name), name).toBe(isRead);
    }
    const fetchEvents = tools.find((tool) => tool.name === 'fetchEvents')!;
    expect(fetchEvents.description).toContain(coreMethods.fetchEvents.doc);
    expect(fetchEvents.inputSchema).toMatchObject({
      type: 'object',
      required: ['exchange'],
      properties: { exchange: { enum: expect.arrayContaining(['mock']) }, query: { type: 'string', maxLength: expect.any(Number) } },
    });
  });

  test('calls fetchEvents on mock through the pass-through, and the Router search', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'fetchEvents', arguments: { exchange: 'mock', query: 'bitcoin', limit: 3 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const events = JSON.parse(textOf(result)) as Event[];
    expect(events).toHaveLength(3);
    for (const event of events) expect(event.title.toLowerCase()).toContain('bitcoin');

    // The same call over HTTP answers the same events.
    const http = await app.call({ url: '/api/mock/fetchEvents?query=bitcoin&limit=3' });
    expect((JSON.parse(http.payload) as { data: Event[] }).data.map((event) => event.id)).toEqual(events.map((event) => event.id));

    const search = (await client.callTool({ name: 'searchEvents', arguments: { q: 'bitcoin', limit: 2 } })) as CallToolResult;
    const page = JSON.parse(textOf(search)) as { data: Event[]; meta: { count: number } };
    expect(page.meta.count).toBe(2);
    expect(page.data[0]!.sourceExchange).toBe('mock');
  });

  test('bad arguments are a tool error naming the code and the argument', async () => {
    const client = await connect();
    const tooMany = (await client.callTool({ name: 'fetchEvents', arguments: { exchange: 'mock', limit: 'many' } })) as CallToolResult;
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/^VALIDATION_ERROR: .*limit/);
    expect(tooMany.structuredContent).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });

    const venue = (await client.callTool({ name: 'fetchEvents', arguments: { exchange: 'nowhere' } })) as CallToolResult;
    expect(venue.isError).toBe(true);
    expect(textOf(venue)).toMatch(/^VALIDATION_ERROR: fetchEvents: "exchange" must be one of .*mock/);

    const search = (await client.callTool({ name: 'searchEvents', arguments: { limit: 100_000 } })) as CallToolResult;
    expect(textOf(search)).toMatch(/^VALIDATION_ERROR: "limit"/);

    const unknown = (await client.callTool({ name: 'placeEverything', arguments: {} })) as CallToolResult;
    expect(textOf(unknown)).toBe('NOT_FOUND: Unknown tool "placeEverything"');
  });

  test('is refused without a key or with a wrong one', async () => {
    await expect(connect(null)).rejects.toThrow(/401|Missing API key/);
    await expect(connect('not-a-key-of-this-gateway')).rejects.toThrow(/401|Invalid API key/);
    const response = await app.server.inject({ method: 'POST', url: '/mcp', payload: {} });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.payload)).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
  });

  test('GET /mcp is 405: the server is stateless and keeps no stream open', async () => {
    const response = await app.call({ url: '/mcp' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });
});

describe('/mcp with trading turned on', () => {
  test('offers the account and trading methods, each requiring credentials', async () => {
    const trading = await testApp({ config: { mcp: { trading: true } } });
    try {
      const list = await trading.call({
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      });
      expect(list.statusCode, list.payload).toBe(200);
      const tools = (JSON.parse(list.payload) as { result: { tools: Array<{ name: string; inputSchema: { required: string[] } }> } }).result.tools;
      const createOrder = tools.find((tool) => tool.name === 'createOrder');
      expect(createOrder?.inputSchema.required).toContain('credentials');
      expect(tools.map((tool) => tool.name)).toContain('fetchBalance');
    } finally {
      await trading.stop();
    }
  });
});
