import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError, refuseUnhonouredOrderControls } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { catalogAnswers } from '../answers/catalog-answers.js';
import { archiveAnswerer, closeAnswerer, describeAnswerer, scopeAnswerer, watchAnswerer } from '../answers/gateway-answers.js';
import { answerCall } from '../answers/pipeline.js';
import type { Answerer } from '../answers/pipeline.js';
import { servedFromHeaders, withHeaders } from '../answers/served-from.js';
import { venueAnswerer } from '../answers/venue-answers.js';
import { tokens } from '../container.js';
import { readCall, routedMethod } from './call-input.js';
import type { CallerCredentials } from './auth.js';
import type { RequestVenue } from './errors.js';

/**
 * `GET|POST /api/{exchange}/{method}`. Nothing here names a method or a venue:
 * both come from the path and are looked up in the core registry and the
 * venue directory, so a method added to the core list is served here at once.
 * A call is answered by the first of an ordered list of answerers that can:
 * the gateway itself (describe, close), HTTP watches, venue scoping, the archive,
 * the catalog, and last the venue's adapter.
 */
export const passThroughPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-pass-through',
  register(server, { container }) {
    const venues = container.resolve(tokens.venues);
    const methods = container.resolve(tokens.methods);
    const metrics = container.resolve(tokens.metrics);
    const catalog = container.resolve(tokens.catalog);
    const clock = container.resolve(tokens.clock);
    const streams = container.resolve(tokens.streams);
    const fromCatalog = catalogAnswers({ catalog, metrics, clock });
    const answerers: Answerer[] = [
      describeAnswerer,
      closeAnswerer(streams),
      watchAnswerer(streams),
      scopeAnswerer,
      archiveAnswerer(container.isRegistered(tokens.archive) ? container.resolve(tokens.archive) : undefined),
      fromCatalog.answerer,
      venueAnswerer({
        metrics,
        drift: container.resolve(tokens.drift),
        catalog,
        budgetMs: container.resolve(tokens.config).requestBudgetSeconds * 1000,
      }),
    ];

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
      const routed = routedMethod(methods, params.method, venue.id);
      if (!venue.capabilities[routed.name]) {
        const reason = venue.describe().unsupported?.[routed.name];
        throw new PredgateError('NOT_SUPPORTED', `${venue.id} does not support ${routed.name}${reason ? `: ${reason}` : ''}`, {
          exchange: venue.id,
          ...(reason ? { detail: { reason } } : {}),
        });
      }
      const input = readCall(request, routed, venue.id);
      // The profile, not describe(): describe copies the whole description, and this runs on every call.
      refuseUnhonouredOrderControls(venue.id, venue.shared.profile.orderControls, routed.name, input.args);
      const answer = await answerCall(answerers, {
        request,
        h,
        target: venue,
        venue: venue.id,
        method: routed.name,
        declaration: routed.declaration,
        routed,
        input,
        args: input.args,
        keyId: (request.auth.credentials as unknown as CallerCredentials).keyId,
        address: request.info.remoteAddress,
      });
      // Serialised here, so the answer goes out with its length (one write) and is compressed, when that pays, in one call.
      const response = answer.response ?? (await h.storedJson(Buffer.from(JSON.stringify({ success: true, data: answer.data }))));
      return answer.servedFrom ? withHeaders(response, servedFromHeaders(answer.servedFrom, answer.asOf, clock.now())) : response;
    };

    const path = '/api/{exchange}/{method}';
    server.route([
      { method: 'GET', path, handler, options: { ext: { onPostAuth: fromCatalog.cachedFirst } } },
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
        options: { payload: { maxBytes: 5 * 1024 * 1024, allow: 'application/json' }, ext: { onPostAuth: fromCatalog.cachedFirst } },
      },
    ]);
  },
};
