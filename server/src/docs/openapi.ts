import { createRequire } from 'node:module';
import {
  balanceSchema,
  coreMethods,
  errorCodes,
  eventSchema,
  marketSchema,
  orderBookSchema,
  orderSchema,
  outcomeSchema,
  positionSchema,
  toJsonSchema,
  tradeSchema,
  userTradeSchema,
} from '@predgate/core';
import type { Argument, JsonSchema, MethodDeclaration } from '@predgate/core';
import type { RequestRoute } from '@hapi/hapi';
import type { Venue } from '../venues/venue.js';
import { routePaths } from './route-paths.js';

const serverPackage = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Real answers of the mock venue, by method, used as the document's examples; `arguments`: real argument values by name. */
export type Examples = Partial<Record<string, unknown>> & { arguments?: Record<string, unknown> };

/**
 * The unified model's schemas, named once in `components.schemas`: every
 * place the document would repeat one refers to it instead, so generated
 * clients get named types.
 */
const namedSchemas = {
  Event: eventSchema,
  Market: marketSchema,
  Outcome: outcomeSchema,
  OrderBook: orderBookSchema,
  Trade: tradeSchema,
  UserTrade: userTradeSchema,
  Order: orderSchema,
  Position: positionSchema,
  Balance: balanceSchema,
};

/**
 * The OpenAPI 3.1 document of this gateway, derived from the core method list
 * (arguments, verbs, result schemas, doc lines), the installed venues and
 * their capability maps: a method appears for exactly the venues whose
 * `describe` says they have it. Nothing here is written per method. The
 * other surfaces (Router, archive, streaming, webhooks, MCP) come from their
 * routes' own documentation and validation schemas.
 */
export function openApiDocument(venues: readonly Venue[], routes: readonly RequestRoute[], examples: Examples = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(coreMethods) as Array<[string, MethodDeclaration]>) {
    const serving = venues.filter((venue) => venue.describe().has[name] !== false).map((venue) => venue.id);
    if (serving.length === 0) continue;
    paths[`/api/{exchange}/${name}`] = methodPath(name, declaration, serving, examples[name], examples.arguments ?? {});
  }
  Object.assign(paths, withVenueFacts(routePaths(routes), venues));
  const schemas = Object.fromEntries(Object.entries(namedSchemas).map(([name, schema]) => [name, toJsonSchema(schema)]));
  return referToNamedSchemas({
    openapi: '3.1.0',
    servers: [{ url: '/', description: 'This gateway, where this document was fetched from.' }],
    info: {
      title: 'Predgate',
      version: serverPackage.version,
      description:
        'One HTTP/JSON interface over many prediction-market venues. `/api/{exchange}/{method}` answers in the `{success, data, error}` envelope; the Router (`/v0/events`) searches every venue from the catalog.',
    },
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A Predgate API key (`pg_...`), as printed by the first start or `predgate keys create`.' },
      },
      schemas: {
        ...schemas,
        ErrorCode: { type: 'string', enum: Object.keys(errorCodes) },
        ErrorEnvelope: errorEnvelope,
        RouterError: routerError,
      },
      responses: errorResponses(),
    },
    'x-error-codes': Object.entries(errorCodes).map(([code, info]) => ({ code, status: info.status, retryable: info.retryable, message: info.message })),
  });
}

/**
 * Replaces every copy of a named schema in the document by a `$ref` to it,
 * inside the named schemas too (an Event's markets refer to Market), but
 * never a named schema by a reference to itself.
 */
function referToNamedSchemas(document: Record<string, unknown>): Record<string, unknown> {
  const named = (document.components as { schemas: Record<string, unknown> }).schemas;
  const byText = new Map(Object.keys(namedSchemas).map((name) => [JSON.stringify(named[name]), name]));
  const refer = (value: unknown, self?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => refer(item));
    if (typeof value !== 'object' || value === null) return value;
    const name = byText.get(JSON.stringify(value));
    if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, refer(member)]));
  };
  const referred = refer({ ...document, components: { ...(document.components as object), schemas: {} } }) as Record<string, unknown>;
  const schemas = Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, refer(schema, name)]));
  return { ...referred, components: { ...(referred.components as object), schemas } };
}

function methodPath(name: string, declaration: MethodDeclaration, venues: string[], example: unknown, argumentExamples: Record<string, unknown>) {
  const exchange = {
    name: 'exchange',
    in: 'path',
    required: true,
    schema: { type: 'string', enum: venues },
    example: venues.includes('mock') ? 'mock' : venues[0],
    description: 'Venue id: the venues that implement this method.',
  };
  const success = {
    description: 'The method’s answer in the success envelope.',
    content: {
      'application/json': {
        schema: { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: toJsonSchema(declaration.result.schema) } },
        ...(example === undefined ? {} : { example: { success: true, data: example } }),
      },
    },
  };
  const responses = { '200': success, ...errorRefs() };
  const operation = (verb: string) => ({
    operationId: `${verb}${name[0]!.toUpperCase()}${name.slice(1)}`,
    summary: declaration.doc,
    description: describeDeclaration(declaration),
    tags: [declaration.credentials ? 'Account and trading' : declaration.stream ? 'Streaming' : 'Market data'],
    responses,
  });
  const path: Record<string, unknown> = {
    parameters: [exchange],
    post: { ...operation('post'), requestBody: { required: false, content: { 'application/json': { schema: bodySchema(declaration) } } } },
  };
  if (declaration.verbs.includes('GET')) path.get = { ...operation('get'), parameters: queryParameters(declaration.args, argumentExamples) };
  return path;
}

export function describeDeclaration(declaration: MethodDeclaration): string {
  const notes = [declaration.doc];
  if (declaration.credentials)
    notes.push('Needs the caller’s venue credentials in the body’s `credentials` member; they are used for the call and never logged or stored.');
  if (declaration.catalog)
    notes.push('Answered from the catalog while the venue’s catalog is fresh and every parameter can be answered there; live from the venue otherwise.');
  if (declaration.answeredBy === 'gateway') notes.push('Answered by the gateway from what it knows of the venue.');
  return notes.join('\n\n');
}

/** POST bodies: positional `args`, named `kwargs`, or a flat object of named arguments. */
function bodySchema(declaration: MethodDeclaration): JsonSchema {
  const named = namedArguments(declaration.args);
  const credentials = {
    type: 'object',
    additionalProperties: { type: ['string', 'number'] },
    description: 'Venue credentials (members per venue: see `describe`).',
  };
  return {
    anyOf: [
      {
        type: 'object',
        properties: {
          args: { type: 'array', prefixItems: declaration.args.map((declared) => toJsonSchema(declared.schema)), maxItems: declaration.args.length },
          credentials,
        },
      },
      { type: 'object', properties: { kwargs: named, credentials } },
      { ...named, properties: { ...(named.properties as object), credentials } },
    ],
  };
}

function namedArguments(args: readonly Argument[]): JsonSchema {
  const properties = Object.fromEntries(args.map((declared) => [declared.name, toJsonSchema(declared.schema)]));
  const required = args.filter((declared) => !declared.optional).map((declared) => declared.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * GET query parameters, as the gateway reads a query string: a `params`
 * argument spreads its members over the query, lists are repeated keys, and
 * structured values travel as JSON text under their own key.
 */
function queryParameters(args: readonly Argument[], examples: Record<string, unknown>) {
  const parameters = args.flatMap((declared) => {
    const schema = toJsonSchema(declared.schema);
    if (declared.kind === 'params') {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return Object.entries(properties).map(([key, member]) => queryParameter(key, member, required.has(key) && !declared.optional, examples[key]));
    }
    return [queryParameter(declared.name, schema, !declared.optional, examples[declared.name])];
  });
  // A named argument wins over a params member of the same name (fetchOrderBook's `limit`), as the gateway reads them.
  return parameters.filter((parameter, index) => parameters.findIndex((other) => other.name === parameter.name) === index);
}

/**
 * One query key, with a plain `schema` as generators expect: ids (a string,
 * or an exact number) are strings, a list is a repeated key, and a structured
 * value is JSON text under its own key.
 */
function queryParameter(name: string, schema: JsonSchema, required: boolean, example: unknown) {
  const options = schema.anyOf as JsonSchema[] | undefined;
  const list = options?.find((option) => option.type === 'array');
  const text = options?.find((option) => option.type === 'string');
  const plain = list
    ? { schema: list, style: 'form', explode: true }
    : text
      ? { schema: text }
      : schema.type === 'object' || options
        ? { schema: { type: 'string', contentMediaType: 'application/json', contentSchema: schema }, description: 'JSON text.' }
        : { schema };
  return { name, in: 'query', required, ...plain, ...(example === undefined ? {} : { example }) };
}

const errorEnvelope = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'exchange', 'detail'],
      properties: {
        code: { $ref: '#/components/schemas/ErrorCode' },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        exchange: { type: ['string', 'null'] },
        detail: {
          type: ['object', 'null'],
          description:
            'Code-specific facts: `argument`/`path` on VALIDATION_ERROR, `retryAfter` (seconds) on RATE_LIMIT_EXCEEDED and open circuits, the venue’s own `status` and `venueMessage` on venue failures, `endpoint`/`field` when a venue answered in a shape Predgate does not understand.',
        },
      },
    },
  },
};

const routerError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'detail'],
      properties: {
        code: { $ref: '#/components/schemas/ErrorCode' },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        detail: { type: ['object', 'null'] },
      },
    },
  },
};

/** One response per HTTP status an error code can have, each listing the codes behind it. */
function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const [code, info] of Object.entries(errorCodes)) byStatus.set(info.status, [...(byStatus.get(info.status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      `Status${status}`,
      {
        description: `Error envelope; codes: ${codes.join(', ')}.`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    ]),
  );
}

/** Every error status the gateway answers with; which codes stand behind each is in its response. */
function errorRefs(): Record<string, unknown> {
  const statuses = [...new Set(Object.values(errorCodes).map((info) => info.status))].sort();
  return Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Status${status}` }]));
}
/**
 * What the routes' documentation cannot know when they are defined: the
 * venues this gateway serves (the Router's `sourceExchange`) and, on `/ws`,
 * the streaming methods with the venues serving each and the schema of their
 * data frames.
 */
function withVenueFacts(paths: Record<string, Record<string, unknown>>, venues: readonly Venue[]): Record<string, unknown> {
  const events = paths['/v0/events']?.get as { parameters?: Array<{ name: string; schema: JsonSchema }> } | undefined;
  for (const parameter of events?.parameters ?? []) {
    if (parameter.name === 'sourceExchange')
      parameter.schema = { ...parameter.schema, enum: venues.filter((venue) => !venue.plugin.spansVenues).map((venue) => venue.id) };
  }
  const socket = paths['/ws']?.get as Record<string, unknown> | undefined;
  if (socket) socket['x-streaming-methods'] = streamingMethods(venues);
  return paths;
}

function streamingMethods(venues: readonly Venue[]) {
  const streams = (Object.entries(coreMethods) as Array<[string, MethodDeclaration]>).filter(([, declaration]) => declaration.stream);
  const dataSchema = (declaration: MethodDeclaration): JsonSchema => {
    const each = declaration.stream?.each ? (coreMethods as Record<string, MethodDeclaration>)[declaration.stream.each] : undefined;
    return toJsonSchema((each ?? declaration).result.schema);
  };
  return streams.map(([name, declaration]) => ({
    method: name,
    args: declaration.args.map((argument) => `${argument.name}${argument.optional ? '?' : ''}`),
    exchanges: venues.filter((venue) => venue.describe().has[name]).map((venue) => venue.id),
    data: dataSchema(declaration),
  }));
}
