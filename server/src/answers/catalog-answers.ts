import type { RouteExtObject } from '@hapi/hapi';
import { answerFromCatalog, catalogCanAnswer, wrapPiecedJson } from '@predgate/catalog';
import type { CatalogService } from '@predgate/catalog';
import type { Clock, EventFetchParams, MarketFetchParams } from '@predgate/core';
import { LRUCache } from 'lru-cache';
import type { Metrics } from '../metrics.js';
import { cachedAnswerFirst, sentQuery } from '../plugins/json-response.js';
import type { Answerer } from './pipeline.js';
import { servedFromHeaders } from './served-from.js';

/** After a catalog read fails, calls go straight to the venue for this long instead of each waiting for the database first. */
const outageDetourMs = 10_000;

/** A call the catalog answers: its venue, its method and its parameters as the catalog read them, as JSON. */
interface CatalogCall {
  venue: string;
  method: string;
  params: string;
}

/**
 * A call as it arrived: verb, path, query and parsed body. Two requests of one
 * form are read into the same arguments, so they get the same answer.
 */
export function callForm(method: string, path: string, query: string, payload: unknown): string {
  return `${method} ${path}${query}\n${JSON.stringify(payload ?? null)}`;
}

/**
 * Catalog reads without credentials, answered from a fresh catalog when it can
 * answer them exactly, byte for byte as the venue would. `cachedFirst` is the
 * route step that sends an answer already kept before the call is read again.
 */
export function catalogAnswers(options: { catalog: CatalogService; metrics: Metrics; clock: Clock }): { answerer: Answerer; cachedFirst: RouteExtObject } {
  const { catalog, metrics, clock } = options;
  const catalogIdentity = (call: CatalogCall) => `${call.venue}:${catalog.generation}:${call.method}:${call.params}`;
  // The catalog call each form of request was read into, so a form seen before finds its cached answer before
  // its arguments are parsed and validated again. Bounded in bytes; a form too long to keep is read each time.
  const catalogCalls = new LRUCache<string, CatalogCall>({
    maxSize: 4 * 1024 * 1024,
    maxEntrySize: 16 * 1024,
    sizeCalculation: (call, form) => form.length + call.params.length,
  });
  const cachedFirst = cachedAnswerFirst<CatalogCall>({
    formOf: (request) => catalogCalls.get(callForm(request.method, request.path, sentQuery(request), request.payload)),
    // A venue whose catalog went stale is asked live again, as the handler would.
    identityOf: (call) => (catalog.isFresh(call.venue) ? catalogIdentity(call) : undefined),
    headersOf: (call) => servedFromHeaders('catalog', catalog.sweptAt(call.venue), clock.now()),
    onAnswer: (call) => metrics.catalogAnswers.inc({ venue: call.venue, method: call.method }),
  });

  let lastFailureAt = Number.NEGATIVE_INFINITY;

  const answerer: Answerer = {
    name: 'catalog',
    canAnswer: (call) =>
      call.declaration.catalog &&
      clock.now() - lastFailureAt >= outageDetourMs &&
      !call.input.credentials &&
      catalog.isFresh(call.venue) &&
      catalogCanAnswer(call.method, call.args[0] as (EventFetchParams & MarketFetchParams) | undefined),
    async answer(call) {
      const params = call.args[0] as (EventFetchParams & MarketFetchParams) | undefined;
      const catalogCall = { venue: call.venue, method: call.method, params: JSON.stringify(params ?? {}) };
      // Kept once per form: every later request of that form is read into this same call.
      if (!catalogCalls.has(call.form)) catalogCalls.set(call.form, catalogCall);
      const identity = catalogIdentity(catalogCall);
      const asOf = catalog.sweptAt(call.venue);
      const cached = call.json.cached(identity);
      if (cached) {
        metrics.catalogAnswers.inc({ venue: call.venue, method: call.method });
        return { sent: cached, servedFrom: 'catalog', asOf };
      }
      const method = call.method as Parameters<typeof answerFromCatalog>[2];
      const fromCatalog = await answerFromCatalog(catalog.store, call.venue, method, params).catch((error: unknown) => {
        call.logger.warn({ err: error, venue: call.venue }, 'catalog read failed; asking the venue');
        lastFailureAt = clock.now();
        return undefined;
      });
      if (fromCatalog === undefined) return undefined;
      metrics.catalogAnswers.inc({ venue: call.venue, method: call.method });
      // Compressed, an answer of stored events is stitched from their gzip pieces, not compressed again (see json-out.ts).
      const answer = wrapPiecedJson(fromCatalog, '{"success":true,"data":', '}');
      return { sent: await call.json.stored(answer.json, identity, answer.gzip), servedFrom: 'catalog', asOf };
    },
  };
  return { answerer, cachedFirst };
}
