import type { RequestRoute, RouteOptions } from '@hapi/hapi';
import { toJsonSchema } from '@predgate/core';
import type { JsonSchema } from '@predgate/core';
import type { Schema } from 'joi';

/**
 * What a route says of itself in the OpenAPI document. Its path and query
 * parameters and its JSON body are not written here: they are read from the
 * route's own validation schemas, so the document shows the bounds the
 * route enforces.
 */
export interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  responses: Record<string, unknown>;
  /** Parameters the route reads itself rather than through its validation (a `Range` header, the upgrade's `apiKey`). */
  parameters?: unknown[];
  /** A body the route takes without a joi schema. */
  requestBody?: unknown;
  /** Extensions (`x-...`) the document adds. */
  extensions?: Record<string, unknown>;
}

/** The route option that carries a route's document: `options: { ...documented({...}) }`. */
export function documented(doc: RouteDoc): Pick<RouteOptions, 'plugins'> {
  return { plugins: { openapi: doc } };
}

/** The OpenAPI path items of every documented route, by path and verb. */
export function routePaths(routes: readonly RequestRoute[]): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = (route.settings.plugins as { openapi?: RouteDoc } | undefined)?.openapi;
    if (!doc) continue;
    const validate = route.settings.validate ?? {};
    const parameters = [...schemaParameters(validate.params, 'path'), ...schemaParameters(validate.query, 'query'), ...(doc.parameters ?? [])];
    const body = validate.payload ? { required: true, content: { 'application/json': { schema: toJsonSchema(validate.payload as Schema) } } } : doc.requestBody;
    paths[route.path] = {
      ...paths[route.path],
      [route.method]: {
        operationId: doc.operationId,
        summary: doc.summary,
        ...(doc.description ? { description: doc.description } : {}),
        tags: doc.tags,
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(body ? { requestBody: body } : {}),
        responses: doc.responses,
        ...doc.extensions,
      },
    };
  }
  return paths;
}

/** One parameter per key of a route's joi object schema, with its type, bounds, default and description. */
function schemaParameters(schema: unknown, place: 'path' | 'query'): unknown[] {
  if (!schema || typeof schema !== 'object' || !('describe' in schema)) return [];
  const object = toJsonSchema(schema as Schema);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...typed } = property as JsonSchema & { description?: string };
    return {
      name,
      in: place,
      // Path parameters are always required in OpenAPI; hapi routes match only when they are present.
      required: place === 'path' || required.has(name),
      schema: typed,
      ...(description ? { description } : {}),
    };
  });
}
