import { PredgateError, coreMethods, routerVenue, toJsonSchema } from '@predgate/core';
import type { JsonSchema, MethodDeclaration } from '@predgate/core';
import { describeDeclaration } from '../docs/openapi.js';
import { eventsQuery } from '../plugins/router.js';
import type { Venue } from '../venues/venue.js';

/** One MCP tool: what `tools/list` shows, and the gateway request a call of it becomes. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** The HTTP call this tool's arguments stand for; it goes through the gateway's own routes. */
  request(args: Record<string, unknown>): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> };
}

export interface McpToolOptions {
  /** Account and trading methods (those needing venue credentials) become tools too. */
  trading: boolean;
}

/** The tool for the Router's cross-venue search (`GET /v0/events`). */
export const routerSearchTool = 'searchEvents';

/**
 * The gateway's tools, derived from the core method list: one per method a
 * client reads with (streams and their stop methods are left out, since a tool
 * call answers once), account and trading methods only when the operator turns
 * them on, and the Router's search. Descriptions and input schemas come from
 * the same declarations and joi → JSON Schema conversion as the OpenAPI document.
 */
export function mcpTools(venues: readonly Venue[], options: McpToolOptions): McpTool[] {
  const declarations = Object.entries(coreMethods) as Array<[string, MethodDeclaration]>;
  const stopMethods = new Set(declarations.map(([, declaration]) => declaration.stream?.stop).filter(Boolean));
  const tools = declarations
    .filter(([name, declaration]) => !declaration.stream && !stopMethods.has(name) && (options.trading || !declaration.credentials))
    .map(([name, declaration]) => methodTool(name, declaration, servingVenues(venues, name)))
    .filter((tool): tool is McpTool => tool !== undefined);
  return [...tools, searchTool(venues)];
}

function servingVenues(venues: readonly Venue[], name: string): string[] {
  return venues.filter((venue) => venue.describe().has[name] !== false).map((venue) => venue.id);
}

/**
 * A method as a tool: `exchange` plus the method's named arguments, a `params`
 * argument's members spread at the top as the gateway's flat POST body takes them.
 */
function methodTool(name: string, declaration: MethodDeclaration, exchanges: string[]): McpTool | undefined {
  if (exchanges.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {
    exchange: { type: 'string', enum: exchanges, description: 'Venue id: the venues that implement this method.' },
  };
  const required = ['exchange'];
  for (const declared of declaration.args) {
    const schema = toJsonSchema(declared.schema);
    if (declared.kind === 'params') {
      Object.assign(properties, schema.properties);
      if (!declared.optional) required.push(...((schema.required as string[] | undefined) ?? []));
    } else {
      properties[declared.name] = schema;
      if (!declared.optional) required.push(declared.name);
    }
  }
  if (declaration.credentials) {
    properties.credentials = {
      type: 'object',
      additionalProperties: { type: ['string', 'number'] },
      description: 'Venue credentials (members per venue: see the describe tool); used for this call, never logged or stored.',
    };
    required.push('credentials');
  }
  return {
    name,
    description: describeDeclaration(declaration),
    inputSchema: { type: 'object', properties, required },
    request(args) {
      const { exchange, ...rest } = args;
      if (typeof exchange !== 'string' || !exchanges.includes(exchange)) {
        throw new PredgateError('VALIDATION_ERROR', `${name}: "exchange" must be one of ${exchanges.join(', ')}`, {
          detail: { method: name, argument: 'exchange' },
        });
      }
      return { method: 'POST', url: `/api/${encodeURIComponent(exchange)}/${name}`, payload: rest };
    },
  };
}

function searchTool(venues: readonly Venue[]): McpTool {
  const schema = toJsonSchema(eventsQuery);
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  properties.sourceExchange = { ...properties.sourceExchange, enum: venues.map((venue) => venue.id).filter((id) => id !== routerVenue) };
  return {
    name: routerSearchTool,
    description:
      'Cross-venue event search over the catalog (the Router, `GET /v0/events`): highest 24h volume first, markets and outcomes nested; `q` matches title or slug.',
    inputSchema: { type: 'object', properties },
    request(args) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(args)) {
        if (!['string', 'number', 'boolean'].includes(typeof value)) {
          throw new PredgateError('VALIDATION_ERROR', `"${key}" must be a string, number or boolean`, { detail: { parameter: key } });
        }
        query.set(key, String(value));
      }
      return { method: 'GET', url: `/v0/events?${query.toString()}` };
    },
  };
}
