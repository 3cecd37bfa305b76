import type { RouteDoc } from '../docs/route-paths.js';

/** `/mcp` in the OpenAPI document: one JSON-RPC endpoint; its tools are listed by `tools/list`, not here. */
export const mcpDoc: RouteDoc = {
  operationId: 'mcp',
  summary: 'MCP server (streamable HTTP, stateless): one tool per read method of the method list, plus `searchEvents` over the Router.',
  description:
    'JSON-RPC 2.0 messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`); send `Accept: application/json, text/event-stream`. Each request is answered on its own in JSON; no session id is issued. A tool call is the gateway call it names, with the same key, validation and rate budget; its error is a tool result with `isError` and the error code.',
  tags: ['MCP'],
  requestBody: { required: true, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
  responses: {
    '200': { description: 'The JSON-RPC answer.', content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
    '401': { $ref: '#/components/responses/Status401' },
    '406': { description: 'The `Accept` header lacks `application/json` or `text/event-stream`.' },
    '429': { $ref: '#/components/responses/Status429' },
  },
};
