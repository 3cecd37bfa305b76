import { createRequire } from 'node:module';
import type { Plugin, Request, ResponseToolkit, Server as HapiServer } from '@hapi/hapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PredgateError, isPredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { headerKey } from '../keys/presented-key.js';
import { mcpTools } from './tools.js';
import type { McpTool } from './tools.js';
import { documented } from '../docs/route-paths.js';
import { mcpDoc } from './openapi.js';

const serverPackage = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The largest JSON-RPC body `/mcp` reads; a tool's arguments are bounded again by the method's own schema. */
const maxRequestBytes = 256 * 1024;

/**
 * `POST /mcp`: the method list as an MCP server (streamable HTTP, stateless,
 * JSON answers). The API key is the bearer, checked and charged like any
 * route's; a tool call then goes through the gateway's own route for it
 * (`/api/{exchange}/{method}` or `/v0/events`) with the same key, so it is
 * validated, catalog-or-live and charged exactly as that HTTP call would be.
 * Stateless: each POST gets a fresh MCP server and transport, so nothing is
 * kept between requests and any replica can answer any request.
 */
export const mcpPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-mcp',
  register(server, { container }) {
    const venues = container.resolve(tokens.venues);
    const config = container.resolve(tokens.config);
    const tools = mcpTools(venues.all(), config.mcp);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));

    server.route({
      method: 'POST',
      path: '/mcp',
      options: { ...documented(mcpDoc), payload: { maxBytes: maxRequestBytes, allow: 'application/json', output: 'data', parse: true } },
      async handler(request: Request, h: ResponseToolkit) {
        const mcp = new Server({ name: 'predgate', version: serverPackage.version }, { capabilities: { tools: {} } });
        const key = headerKey(request.raw.req.headers)!;
        mcp.setRequestHandler(ListToolsRequestSchema, () => ({
          tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        }));
        mcp.setRequestHandler(CallToolRequestSchema, ({ params }) => callTool(server, key, byName.get(params.name), params.name, params.arguments ?? {}));
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await mcp.connect(transport);
        try {
          const answer = await transport.handleRequest(webRequest(request), { parsedBody: request.payload });
          const reply = h.response(await answer.text()).code(answer.status);
          answer.headers.forEach((value, name) => reply.header(name, value));
          return reply;
        } finally {
          await mcp.close();
        }
      },
    });
    server.route({
      method: '*',
      path: '/mcp',
      handler(request) {
        throw new PredgateError('BAD_REQUEST', `${request.method.toUpperCase()} is not allowed on /mcp: this MCP server is stateless, POST JSON-RPC messages`, {
          status: 405,
          detail: { allow: 'POST' },
        });
      },
    });
  },
};

/** A tool call as the gateway request it stands for; the envelope's error becomes the tool's error, with its code. */
async function callTool(server: HapiServer, key: string, tool: McpTool | undefined, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  if (!tool) return toolError('NOT_FOUND', `Unknown tool "${name}"`);
  let call: ReturnType<McpTool['request']>;
  try {
    call = tool.request(args);
  } catch (error) {
    if (isPredgateError(error)) return toolError(error.code, error.message);
    throw error;
  }
  const response = await server.inject({ ...call, headers: { authorization: `Bearer ${key}` } });
  const body = JSON.parse(response.payload) as { success?: boolean; data?: unknown; error?: { code: string; message: string } };
  if (response.statusCode >= 400 || body.error) return toolError(body.error?.code ?? 'INTERNAL_ERROR', body.error?.message ?? `HTTP ${response.statusCode}`);
  const result = body.success === true ? body.data : body;
  return { content: [{ type: 'text', text: JSON.stringify(result) }] };
}

function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], structuredContent: { error: { code, message } } };
}

/** The fetch-style request the SDK's transport reads: method, URL and headers; the body is already parsed. */
function webRequest(request: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new globalThis.Request(`http://${request.info.host}${request.path}`, { method: request.method.toUpperCase(), headers });
}
