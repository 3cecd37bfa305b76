import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError, adapterMethod, applyGatewayParams } from '@predgate/core';
import { answerFromCatalog, catalogCanAnswer, routerVenue, wrapJson } from '@predgate/catalog';
import type { EventFetchParams, MarketFetchParams } from '@predgate/core';
import { LRUCache } from 'lru-cache';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { scrubCredentials } from '../venues/scrub.js';
import type { Venue } from '../venues/venue.js';
import { withinBudget } from './budget.js';
import { readCall, routedMethod } from './call-input.js';
import type { CallerCredentials } from './auth.js';
import type { RequestVenue } from './errors.js';
import { cachedAnswerFirst, sentQuery } from './json-response.js';

/** Methods the gateway answers itself, from what it knows of the venue. */
const gatewayAnswers: Record<string, (venue: Venue) => unknown> = {
  describe: (venue) => venue.describe(),
};

/** A call the catalog answers: its venue, its method and its parameters as the catalog read them, as JSON. */
interface CatalogCall {
  venue: string;
  method: string;
  params: string;
}

/**
 * A call as it arrived: path, query and parsed body. Two requests of one form
 * are read into the same arguments, so they get the same answer.
 */
function callForm(request: Request): string {
  return `${request.method} ${request.path}${sentQuery(request)}\n${JSON.stringify(request.payload ?? null)}`;
}

/**
 * `GET|POST /api/{exchange}/{method}`. Nothing here names a method or a venue:
 * both come from the path and are looked up in the core registry and the
 * venue directory, so a method added to the core list is served here at once.
 */
export const passThroughPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-pass-through',
  register(server, { container }) {
    const venues = container.resolve(tokens.venues);
    const methods = container.resolve(tokens.methods);
    const metrics = container.resolve(tokens.metrics);
    const catalog = container.resolve(tokens.catalog);
    const archive = container.isRegistered(tokens.archive) ? container.resolve(tokens.archive) : undefined;
    const drift = container.resolve(tokens.drift);
    const budgetMs = container.resolve(tokens.config).requestBudgetSeconds * 1000;
    const streams = container.resolve(tokens.streams);

    const catalogIdentity = (call: CatalogCall) => `${call.venue}:${catalog.generation}:${call.method}:${call.params}`;
    // The catalog call each form of request was read into, so a form seen before finds its cached answer before
    // its arguments are parsed and validated again. Bounded in bytes; a form too long to keep is read each time.
    const catalogCalls = new LRUCache<string, CatalogCall>({
      maxSize: 4 * 1024 * 1024,
      maxEntrySize: 16 * 1024,
      sizeCalculation: (call, form) => form.length + call.params.length,
    });
    const cachedCatalogAnswer = cachedAnswerFirst<CatalogCall>({
      formOf: (request) => catalogCalls.get(callForm(request)),
      // A venue whose catalog went stale is asked live again, as the handler would.
      identityOf: (call) => (catalog.isFresh(call.venue) ? catalogIdentity(call) : undefined),
      onAnswer: (call) => metrics.catalogAnswers.inc({ venue: call.venue, method: call.method }),
    });

    // pmxt clients given a base URL with a trailing slash ask for `//api/...`.
    server.ext('onRequest', (request, h) => {
      if (request.path.startsWith('//')) request.setUrl(request.url.pathname.replace(/^\/+/, '/') + request.url.search);
      return h.continue;
    });

    const handler = async (request: Request, h: ResponseToolkit) => {
      const params = request.params as { exchange: string; method: string };
      const venue = venues.get(params.exchange);
      if (!venue) {
        throw new PredgateError('NOT_FOUND', `Unknown exchange "${params.exchange}"`, {
          detail: { exchanges: venues.ids },
        });
      }
      (request.app as RequestVenue).venue = venue.id;
      const routed = routedMethod(methods, params.method);
      const gatewayAnswer = gatewayAnswers[routed.name];
      if (routed.declaration.answeredBy === 'adapter' ? !venue.capabilities[routed.name] : !gatewayAnswer && !streams.stoppedBy(routed.name)) {
        const reason = venue.describe().unsupported?.[routed.name];
        throw new PredgateError('NOT_SUPPORTED', `${venue.id} does not support ${routed.name}${reason ? `: ${reason}` : ''}`, {
          exchange: venue.id,
          ...(reason ? { detail: { reason } } : {}),
        });
      }
      const input = readCall(request, routed, venue.id);
      if (gatewayAnswer) return { success: true, data: gatewayAnswer(venue) };
      // Watches over HTTP (clients without a socket) read the same shared upstreams as /ws, per API key.
      const keyId = (request.auth.credentials as unknown as CallerCredentials).keyId;
      if (routed.declaration.stream) return { success: true, data: await streams.nextOverHttp(keyId, venue, routed, input) };
      const watched = streams.stoppedBy(routed.name);
      if (watched) return { success: true, data: streams.stopOverHttp(keyId, venue, watched, input) };
      // The Router spans venues: `sourceExchange` is one of its filters, not a scope.
      const scoped =
        venue.id === routerVenue
          ? ({ kind: 'call', args: input.args } as const)
          : applyGatewayParams(routed.name, routed.declaration, input.args, venue.id, archive?.venues ?? []);
      if (scoped.kind === 'answer') return { success: true, data: scoped.data };
      if (scoped.kind === 'archive') return { success: true, data: await archive!.answer(venue.id, routed.name, scoped.args) };
      input.args = scoped.args;

      // Catalog reads without credentials are answered from a fresh catalog when it can answer them exactly.
      if (routed.declaration.catalog && !input.credentials && catalog.isFresh(venue.id)) {
        const params = input.args[0] as (EventFetchParams & MarketFetchParams) | undefined;
        if (catalogCanAnswer(routed.name, params)) {
          const catalogCall = { venue: venue.id, method: routed.name, params: JSON.stringify(params ?? {}) };
          catalogCalls.set(callForm(request), catalogCall);
          const identity = catalogIdentity(catalogCall);
          const cached = h.cachedJson(identity);
          if (cached) {
            metrics.catalogAnswers.inc({ venue: venue.id, method: routed.name });
            return cached;
          }
          const fromCatalog = await answerFromCatalog(catalog.store, venue.id, routed.name, params).catch((error: unknown) => {
            request.logger.warn({ err: error, venue: venue.id }, 'catalog read failed; asking the venue');
            return undefined;
          });
          if (fromCatalog !== undefined) {
            metrics.catalogAnswers.inc({ venue: venue.id, method: routed.name });
            return h.storedJson(wrapJson(fromCatalog, '{"success":true,"data":', '}'), identity);
          }
        }
      }

      const call = adapterMethod(venue.adapter(input.credentials), routed.name)!;
      const stop = metrics.adapterSeconds.startTimer({ venue: venue.id, method: routed.name });
      try {
        const pending = Promise.resolve(call(...input.args));
        // Reads are held to the budget; a write (an order, a cancel) is not cut short, since a caller told to retry
        // might place it twice: the venue client's own timeouts bound it, and writes are never retried.
        const isRead = routed.declaration.verbs.includes('GET');
        return { success: true, data: isRead ? await withinBudget(pending, budgetMs, venue.id, routed.name) : await pending };
      } catch (error) {
        metrics.adapterErrors.inc({ venue: venue.id, method: routed.name, code: String((error as { code?: unknown }).code ?? 'INTERNAL_ERROR') });
        drift.record(venue.id, error);
        throw scrubCredentials(error, input.credentials);
      } finally {
        stop();
      }
    };

    const path = '/api/{exchange}/{method}';
    server.route([
      { method: 'GET', path, handler, options: { ext: { onPostAuth: cachedCatalogAnswer } } },
      {
        method: '*',
        path,
        handler(request) {
          throw new PredgateError('BAD_REQUEST', `${request.method.toUpperCase()} is not allowed: call /api/{exchange}/{method} with GET or POST`, {
            status: 405,
            detail: { allow: 'GET, POST' },
          });
        },
      },
      {
        method: 'POST',
        path,
        handler,
        options: { payload: { maxBytes: 5 * 1024 * 1024, allow: 'application/json' }, ext: { onPostAuth: cachedCatalogAnswer } },
      },
    ]);
  },
};
