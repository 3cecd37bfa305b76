import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { routerEventJson, routerEventQuery, routerEventsJson, routerLimits, wrapPiecedJson } from '@predgate/catalog';
import { PredgateError, argumentBounds } from '@predgate/core';
import Joi from 'joi';
import type { ValidationError } from 'joi';
import type { DependencyContainer } from 'tsyringe';
import { servedFromHeaders, withHeaders } from '../answers/served-from.js';
import { tokens } from '../container.js';
import { documented } from '../docs/route-paths.js';
import type { RouteEnvelope } from './errors.js';
import type { Negotiated } from './json-answers.js';
import { cachedAnswerFirst, sentQuery } from './json-response.js';
import type { LeanAnswer } from './lean-path.js';

const routerRoute: { app: RouteEnvelope } = { app: { envelope: 'router' } };
const routerFailure = { description: 'Router error envelope.', content: { 'application/json': { schema: { $ref: '#/components/schemas/RouterError' } } } };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const eventsSchema = { type: 'array', items: { $ref: '#/components/schemas/Event' } };

export const eventsQuery = Joi.object({
  q: Joi.string().max(argumentBounds.text).allow('').description('Case-insensitive substring of title or slug (`query` works too).'),
  limit: Joi.number().integer().min(1).max(routerLimits.max).default(routerLimits.default),
  offset: Joi.number().integer().min(0).default(0),
  closed: Joi.boolean().truthy('1', 'yes').falsy('0', 'no').default(false).description('Include events the venue closed or whose close time has passed.'),
  sourceExchange: Joi.string().max(argumentBounds.word).description('Only this venue’s events (`exchange` works too).'),
  category: Joi.string()
    .max(argumentBounds.word)
    .description('A normalised category (Politics, Sports, Crypto, Economics, Science, Culture, Other) or a venue’s word for one.'),
})
  .rename('query', 'q')
  .rename('exchange', 'sourceExchange');

/** A Router page's query, as `eventsQuery` reads it. */
interface RouterQuery {
  q?: string;
  limit: number;
  offset: number;
  closed: boolean;
  sourceExchange?: string;
  category?: string;
}

const eventParams = Joi.object({ id: Joi.string().guid() });

/** A query or path the Router rejects, in its own error body, naming the parameter. */
export function rejectInput(_request: Request, _h: ResponseToolkit, error: Error | undefined): never {
  const [detail] = (error as ValidationError | undefined)?.details ?? [];
  const parameter = detail?.path.join('.') || String(detail?.context?.key ?? '');
  throw new PredgateError('VALIDATION_ERROR', detail ? `"${parameter}": ${detail.message.replace(/^"[^"]*" /, '')}` : 'Invalid request', {
    detail: { parameter, rule: detail?.type },
  });
}

/**
 * The Router: cross-venue search over the catalog, never a live venue call.
 * `GET /v0/events` and `GET /v0/events/{id}` in the Router's own envelope and
 * `GET /v0/status` for operators. pmxt clients reach the same catalog at
 * `/api/router/{method}`, where the Router is a venue like any other.
 */
export const routerPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-router',
  dependencies: ['predgate-json-response', 'predgate-lean-path'],
  register(server, { container }) {
    const catalog = container.resolve(tokens.catalog);
    const venues = container.resolve(tokens.venues);
    const drift = container.resolve(tokens.drift);
    const http = container.resolve(tokens.http);
    const clock = container.resolve(tokens.clock);

    // Named by the request as it arrived, so a cached page is found before the query is validated.
    const pageIdentity = (query: string) => `v0:${catalog.generation}:events${query}`;
    // The store looks events up by lower-case id, so every spelling of one id is one page.
    const eventIdentity = (id: string) => `v0:${catalog.generation}:event/${id.toLowerCase()}`;
    // Router answers draw on every venue: their data is at least as recent as the oldest venue's last sweep.
    const fromCatalog = () => servedFromHeaders('catalog', catalog.sweptAt(), clock.now());
    const answers = server.plugins['predgate-json-response'].answers;

    // The answers, made once for hapi's routes and the lean path alike.
    const pageAnswer = async (query: RouterQuery, sentQuery: string, negotiated: Negotiated): Promise<LeanAnswer> => {
      // Named before the read: a page read while a sweep commits is kept under the generation it was read from.
      const identity = pageIdentity(sentQuery);
      const cached = answers.cached(identity, negotiated);
      if (cached) return { answer: cached, headers: fromCatalog() };
      const page = await catalog.store.events({
        withTotal: true,
        ...routerEventQuery(
          {
            limit: query.limit,
            offset: query.offset,
            ...(query.closed ? { status: 'all' as const } : {}),
            ...(query.q ? { query: query.q } : {}),
            ...(query.sourceExchange !== undefined ? { sourceExchange: query.sourceExchange } : {}),
            ...(query.category !== undefined ? { category: query.category } : {}),
          },
          clock.now(),
        ),
      });
      const meta = { count: page.items.length, limit: query.limit, offset: query.offset, total: page.total };
      const after = `,"meta":${JSON.stringify(meta)}}`;
      // Compressed, a page is stitched from its events' gzip pieces, as pass-through answers are (see json-out.ts).
      const body = wrapPiecedJson(routerEventsJson(page.items), '{"data":', after);
      return { answer: await answers.answer(body.json, negotiated, identity, body.gzip), headers: fromCatalog() };
    };
    const eventAnswer = async (id: string, negotiated: Negotiated): Promise<LeanAnswer> => {
      const identity = eventIdentity(id);
      const cached = answers.cached(identity, negotiated);
      if (cached) return { answer: cached, headers: fromCatalog() };
      const entry = await catalog.store.eventById(id.toLowerCase());
      if (!entry) throw new PredgateError('EVENT_NOT_FOUND', `Event not found: ${id}`);
      const body = wrapPiecedJson(routerEventJson(entry), '{"data":', '}');
      return { answer: await answers.answer(body.json, negotiated, identity, body.gzip), headers: fromCatalog() };
    };
    const negotiatedBy = (request: Request) => answers.negotiate(request.headers['accept-encoding'] as string | undefined);
    const sent = (h: ResponseToolkit, { answer, headers }: LeanAnswer) => withHeaders(h.sentJson(answer), headers);

    // The same GETs, valid ones, in front of hapi.
    server.plugins['predgate-lean-path'].route('/v0/events', (request) => {
      const labels = { exchange: 'none', method: '/v0/events' };
      if (request.path === '/v0/events') {
        const { error, value } = eventsQuery.validate(request.query, { abortEarly: true });
        if (error) return undefined;
        return { labels, envelope: 'router', answer: () => pageAnswer(value as RouterQuery, request.sentQuery, request.negotiated) };
      }
      const id = request.path.slice('/v0/events/'.length);
      if (!request.path.startsWith('/v0/events/') || id.includes('/') || eventParams.validate({ id }).error) return undefined;
      return { labels: { ...labels, method: '/v0/events/{id}' }, envelope: 'router', answer: () => eventAnswer(id, request.negotiated) };
    });

    server.route({
      method: 'GET',
      path: '/v0/events',
      options: {
        ...routerRoute,
        ...documented({
          operationId: 'routerEvents',
          summary: 'Cross-venue event search over the catalog, highest 24h volume first, markets and outcomes nested.',
          tags: ['Router'],
          responses: {
            '200': {
              description: 'A page of events.',
              content: json({
                type: 'object',
                required: ['data', 'meta'],
                properties: {
                  data: eventsSchema,
                  meta: {
                    type: 'object',
                    required: ['count', 'limit', 'offset', 'total'],
                    properties: { count: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' }, total: { type: 'integer' } },
                  },
                },
              }),
            },
            '400': routerFailure,
            '401': routerFailure,
          },
        }),
        validate: { query: eventsQuery, failAction: rejectInput, options: { abortEarly: true } },
        ext: { onPostAuth: cachedAnswerFirst({ formOf: sentQuery, identityOf: pageIdentity, headersOf: fromCatalog }) },
      },
      async handler(request, h) {
        return sent(h, await pageAnswer(request.query as unknown as RouterQuery, sentQuery(request), negotiatedBy(request)));
      },
    });

    server.route({
      method: 'GET',
      path: '/v0/events/{id}',
      options: {
        ...routerRoute,
        ...documented({
          operationId: 'routerEvent',
          summary: 'One catalog event by its UUID.',
          tags: ['Router'],
          responses: {
            '200': {
              description: 'The event.',
              content: json({ type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Event' } } }),
            },
            '404': routerFailure,
          },
        }),
        validate: { params: eventParams, failAction: rejectInput },
        ext: {
          onPostAuth: cachedAnswerFirst({ formOf: (request) => (request.params as { id: string }).id, identityOf: eventIdentity, headersOf: fromCatalog }),
        },
      },
      async handler(request, h) {
        return sent(h, await eventAnswer((request.params as { id: string }).id, negotiatedBy(request)));
      },
    });

    // Other verbs on the Router's paths are 405 with the verbs that work, in the Router's envelope.
    for (const path of ['/v0/events', '/v0/events/{id}', '/v0/status']) {
      server.route({
        method: '*',
        path,
        options: routerRoute,
        handler(request) {
          throw new PredgateError('BAD_REQUEST', `${request.method.toUpperCase()} is not allowed on ${path}: use GET`, {
            status: 405,
            detail: { allow: 'GET' },
          });
        },
      });
    }

    server.route({
      method: 'GET',
      path: '/v0/status',
      options: {
        ...routerRoute,
        ...documented({
          operationId: 'routerStatus',
          summary: 'Per venue: last sweep, its age, errors, catalog-served or live.',
          tags: ['Operations'],
          responses: { '200': { description: 'Ingestion status of every venue.' } },
        }),
      },
      handler() {
        const now = clock.now();
        const ingestion = new Map(catalog.status().map((status) => [status.venue, status]));
        const circuits = http.circuits();
        const deprecations = http.deprecations();
        const fallbacks = http.fallbacks();
        return {
          data: venues
            .all()
            .filter((venue) => !venue.plugin.spansVenues)
            .map((venue) => {
              const status = ingestion.get(venue.id);
              const sweep = status?.lastSweep;
              return {
                venue: venue.id,
                enabled: true,
                package: venue.packageName,
                version: venue.plugin.version,
                lastSweep: sweep ? { ...sweep, ageSeconds: Math.round((now - sweep.finishedAt) / 1000) } : null,
                // A sweep that shrank the catalog too much waits for the next to confirm it; the Router serves lastSweep meanwhile.
                heldSweep: status?.heldSweep ?? null,
                drift: drift.of(venue.id),
                circuit: circuits[venue.id] ?? { state: 'closed' },
                // Endpoints the venue says are going away (Deprecation/Sunset headers), so an operator moves before they do.
                deprecations: deprecations[venue.id] ?? [],
                // Hosts in use instead of the configured ones, because those did not resolve or connect.
                hostFallbacks: fallbacks[venue.id] ?? {},
                lastError: status?.lastError ?? null,
                nextAttemptAt: status?.nextAttemptAt ?? null,
                sweeping: status?.running ?? false,
                // Gateways sharing a MongoDB catalog: the replica holding the venue's sweep lease, and whether it is this one.
                sweeper: status?.sweeper ?? null,
                catalogServed: catalog.isFresh(venue.id),
              };
            }),
        };
      },
    });
  },
};
