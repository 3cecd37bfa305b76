import { createRequire } from 'node:module';
import { coreMethods, errorCodes, toJsonSchema } from '@predgate/core';
import type { Argument, JsonSchema, MethodDeclaration } from '@predgate/core';
import { mcpPaths } from '../mcp/openapi.js';
import { webhookPaths } from '../webhooks/openapi.js';
import type { Venue } from '../venues/venue.js';

const serverPackage = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Real answers of the mock venue, by method, used as the document's examples. */
export type Examples = Partial<Record<string, unknown>>;

/**
 * The OpenAPI 3.1 document of this gateway, derived from the core method list
 * (arguments, verbs, result schemas, doc lines), the installed venues and
 * their capability maps: a method appears for exactly the venues whose
 * `describe` says they have it. Nothing here is written per method.
 */
export function openApiDocument(venues: readonly Venue[], examples: Examples = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(coreMethods) as Array<[string, MethodDeclaration]>) {
    const serving = venues.filter((venue) => venue.describe().has[name] !== false).map((venue) => venue.id);
    if (serving.length === 0) continue;
    paths[`/api/{exchange}/${name}`] = methodPath(name, declaration, serving, examples[name]);
  }
  Object.assign(paths, routerPaths(venues.map((venue) => venue.id)), archivePaths, socketPaths(venues), mcpPaths, webhookPaths);
  return {
    openapi: '3.1.0',
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
        ErrorCode: { type: 'string', enum: Object.keys(errorCodes) },
        ErrorEnvelope: errorEnvelope,
        RouterError: routerError,
      },
      responses: errorResponses(),
    },
    'x-error-codes': Object.entries(errorCodes).map(([code, info]) => ({ code, status: info.status, retryable: info.retryable, message: info.message })),
  };
}

function methodPath(name: string, declaration: MethodDeclaration, venues: string[], example: unknown) {
  const exchange = {
    name: 'exchange',
    in: 'path',
    required: true,
    schema: { type: 'string', enum: venues },
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
  if (declaration.verbs.includes('GET')) path.get = { ...operation('get'), parameters: queryParameters(declaration.args) };
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
function queryParameters(args: readonly Argument[]) {
  return args.flatMap((declared) => {
    const schema = toJsonSchema(declared.schema);
    if (declared.kind === 'params') {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return Object.entries(properties).map(([key, member]) => queryParameter(key, member, required.has(key) && !declared.optional));
    }
    return [queryParameter(declared.name, schema, !declared.optional)];
  });
}

function queryParameter(name: string, schema: JsonSchema, required: boolean) {
  // A list that also takes one value is, in a query string, a key that may repeat.
  const list = (schema.anyOf as JsonSchema[] | undefined)?.find((option) => option.type === 'array');
  if (list) return { name, in: 'query', required, schema: list, style: 'form', explode: true };
  if (schema.type === 'object' || schema.anyOf) return { name, in: 'query', required, content: { 'application/json': { schema, example: {} } } };
  return { name, in: 'query', required, schema };
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
 * `/ws`: the frame protocol pmxt clients speak, with each streaming method of
 * the list, the venues serving it and the schema of its data frames.
 */
function socketPaths(venues: readonly Venue[]): Record<string, unknown> {
  const streams = (Object.entries(coreMethods) as Array<[string, MethodDeclaration]>).filter(([, declaration]) => declaration.stream);
  const dataSchema = (declaration: MethodDeclaration): JsonSchema => {
    const each = declaration.stream?.each ? (coreMethods as Record<string, MethodDeclaration>)[declaration.stream.each] : undefined;
    return toJsonSchema((each ?? declaration).result.schema);
  };
  const methods = streams.map(([name, declaration]) => ({
    method: name,
    args: declaration.args.map((argument) => `${argument.name}${argument.optional ? '?' : ''}`),
    exchanges: venues.filter((venue) => venue.describe().has[name]).map((venue) => venue.id),
    data: dataSchema(declaration),
  }));
  return {
    '/ws': {
      get: {
        operationId: 'streamSocket',
        summary: 'WebSocket endpoint for the streaming methods (pmxt’s frame protocol); the API key as a Bearer header or `?apiKey=`.',
        description: [
          'Upgrade to a WebSocket. Client frames: `{"id", "action": "subscribe" | "unsubscribe", "exchange", "method", "args", "credentials"?}`.',
          'Server frames: `{"event": "subscribed", "id"}`, `{"event": "data", "id", "method", "symbol", "data"}` (one per symbol and update; books are full books),',
          '`{"event": "unsubscribed", "id"}` and `{"event": "error", "id", "error": {"code", "message", "retryable"}}` with the codes of `ErrorCode`.',
          'A subscription without data for the data timeout gets a retryable `NETWORK_ERROR` frame; a bad frame gets an error frame and the socket stays open;',
          'a client that falls behind first loses intermediate books, then is closed with code 1013 and the reason. Without a socket, POST the same method to',
          '`/api/{exchange}/{method}` for the next update, and end the watch with the method’s unwatch.',
        ].join(' '),
        tags: ['Streaming'],
        parameters: [
          { name: 'apiKey', in: 'query', required: false, schema: { type: 'string' }, description: 'The API key, for clients that cannot set headers.' },
        ],
        responses: {
          '101': { description: 'Switching protocols: the socket is open.' },
          '401': { $ref: '#/components/responses/Status401' },
          '426': {
            description: 'A plain GET: upgrade to a WebSocket.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        },
        'x-streaming-methods': methods,
      },
    },
  };
}

const archivePaths = {
  '/archive/files': {
    get: {
      operationId: 'archiveFiles',
      summary: 'The archive’s hourly Parquet files of Polymarket L2 books (pmxt v2 columns), oldest first; the open hour appears once it is complete.',
      tags: ['Archive'],
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
      ],
      responses: {
        '200': {
          description: 'A page of files.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  success: { const: true },
                  data: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        name: { type: 'string' },
                        hour: { type: 'string', format: 'date-time' },
                        size: { type: 'integer' },
                        rows: { type: 'integer' },
                        sha256: { type: 'string' },
                      },
                    },
                  },
                  meta: { type: 'object', properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } } },
                },
              },
            },
          },
        },
        '400': { $ref: '#/components/responses/Status400' },
      },
    },
  },
  '/archive/files/{name}': {
    get: {
      operationId: 'archiveFile',
      summary: 'One hourly file, whole or by HTTP Range.',
      tags: ['Archive'],
      parameters: [
        { name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: '^polymarket_orderbook_\\d{4}-\\d{2}-\\d{2}T\\d{2}\\.parquet$' } },
        { name: 'range', in: 'header', schema: { type: 'string' }, description: 'bytes=start-end' },
      ],
      responses: {
        '200': { description: 'The file.', content: { 'application/vnd.apache.parquet': { schema: { type: 'string', contentEncoding: 'binary' } } } },
        '206': { description: 'The requested byte range.' },
        '404': { $ref: '#/components/responses/Status404' },
        '416': { description: 'The range lies outside the file.' },
      },
    },
  },
};

function routerPaths(venues: string[]): Record<string, unknown> {
  const routerFailure = { description: 'Router error envelope.', content: { 'application/json': { schema: { $ref: '#/components/schemas/RouterError' } } } };
  const events = toJsonSchema(coreMethods.fetchEvents.result.schema);
  return {
    '/v0/events': {
      get: {
        operationId: 'routerEvents',
        summary: 'Cross-venue event search over the catalog, highest 24h volume first, markets and outcomes nested.',
        tags: ['Router'],
        parameters: [
          {
            name: 'q',
            in: 'query',
            schema: { type: 'string', maxLength: 200 },
            description: 'Case-insensitive substring of title or slug (`query` works too).',
          },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          {
            name: 'closed',
            in: 'query',
            schema: { type: 'boolean', default: false },
            description: 'Include events the venue closed or whose close time has passed.',
          },
          { name: 'sourceExchange', in: 'query', schema: { type: 'string', enum: venues.filter((venue) => venue !== 'router') } },
          {
            name: 'category',
            in: 'query',
            schema: { type: 'string' },
            description: 'A normalised category (Politics, Sports, Crypto, Economics, Science, Culture, Other) or a venue’s word for one.',
          },
        ],
        responses: {
          '200': {
            description: 'A page of events.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: events,
                    meta: {
                      type: 'object',
                      properties: { count: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' }, total: { type: 'integer' } },
                    },
                  },
                },
              },
            },
          },
          '400': routerFailure,
          '401': routerFailure,
        },
      },
    },
    '/v0/events/{id}': {
      get: {
        operationId: 'routerEvent',
        summary: 'One catalog event by its UUID.',
        tags: ['Router'],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': {
            description: 'The event.',
            content: { 'application/json': { schema: { type: 'object', properties: { data: toJsonSchema(coreMethods.fetchEvent.result.schema) } } } },
          },
          '404': routerFailure,
        },
      },
    },
    '/v0/status': {
      get: {
        operationId: 'routerStatus',
        summary: 'Per venue: last sweep, its age, errors, catalog-served or live.',
        tags: ['Operations'],
        responses: { '200': { description: 'Ingestion status of every venue.' } },
      },
    },
  };
}
