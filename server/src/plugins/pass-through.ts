import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError, refuseUnhonouredOrderControls } from '@predgate/core';
import type { CallInput, RoutedMethod } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { callForm, catalogAnswers } from '../answers/catalog-answers.js';
import { archiveAnswerer, closeAnswerer, describeAnswerer, scopeAnswerer, watchAnswerer } from '../answers/gateway-answers.js';
import { answerCall } from '../answers/pipeline.js';
import type { Answerer } from '../answers/pipeline.js';
import { servedFromHeaders, withHeaders } from '../answers/served-from.js';
import { venueAnswerer } from '../answers/venue-answers.js';
import { tokens } from '../container.js';
import type { Venue } from '../venues/venue.js';
import { readCall, routedMethod } from './call-input.js';
import type { Arrived } from './call-input.js';
import type { Negotiated } from './json-answers.js';
import { sentQuery } from './json-response.js';
import type { LeanAnswer } from './lean-path.js';
import type { RequestLogger } from './request-logging.js';
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
  dependencies: ['predgate-json-response', 'predgate-lean-path'],
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

    const json = server.plugins['predgate-json-response'].answers;

    /** The venue a path names. */
    const venueOf = (exchange: string): Venue => {
      const venue = venues.get(exchange);
      if (venue) return venue;
      throw new PredgateError('NOT_FOUND', `Unknown exchange "${exchange}"`, { detail: { exchanges: venues.ids } });
    };
    /** The method a call names on `venue`, and its checked arguments: every refusal a call can get before it is answered. */
    const readArguments = (venue: Venue, name: string, arrived: Arrived): { routed: RoutedMethod; input: CallInput } => {
      const routed = routedMethod(methods, name, venue.id);
      if (!venue.capabilities[routed.name]) {
        const reason = venue.describe().unsupported?.[routed.name];
        throw new PredgateError('NOT_SUPPORTED', `${venue.id} does not support ${routed.name}${reason ? `: ${reason}` : ''}`, {
          exchange: venue.id,
          ...(reason ? { detail: { reason } } : {}),
        });
      }
      const input = readCall(arrived, routed, venue.id);
      // The profile, not describe(): describe copies the whole description, and this runs on every call.
      refuseUnhonouredOrderControls(venue.id, venue.shared.profile.orderControls, routed.name, input.args);
      return { routed, input };
    };
    /** A read call's answer, for hapi's routes and the lean path alike. */
    const answerRead = async (
      venue: Venue,
      { routed, input }: { routed: RoutedMethod; input: CallInput },
      from: { keyId: string; address: string; form: string; logger: RequestLogger; negotiated: Negotiated },
    ): Promise<LeanAnswer> => {
      const answer = await answerCall(answerers, {
        form: from.form,
        logger: from.logger,
        // Methods, not arrow functions bound to names: run from source, tsx (keepNames) names each such function
        // with a defineProperty when it is made, and these are made on every call.
        json: {
          cached(identity) {
            return json.cached(identity, from.negotiated);
          },
          stored(body, identity, gzipped) {
            return json.answer(body, from.negotiated, identity, gzipped);
          },
        },
        target: venue,
        venue: venue.id,
        method: routed.name,
        declaration: routed.declaration,
        routed,
        input,
        args: input.args,
        keyId: from.keyId,
        address: from.address,
      });
      // Serialised here, so the answer goes out with its length (one write) and is compressed, when that pays, in one call.
      const sent = answer.sent ?? (await json.answer(Buffer.from(JSON.stringify({ success: true, data: answer.data })), from.negotiated));
      return { answer: sent, headers: answer.servedFrom ? servedFromHeaders(answer.servedFrom, answer.asOf, clock.now()) : {} };
    };

    const handler = async (request: Request, h: ResponseToolkit) => {
      const params = request.params as { exchange: string; method: string };
      const venue = venueOf(params.exchange);
      (request.app as RequestVenue).venue = venue.id;
      const read = readArguments(
        venue,
        params.method,
        request.method === 'get' ? { query: request.query as Record<string, string | string[]> } : { body: request.payload },
      );
      const { answer, headers } = await answerRead(venue, read, {
        keyId: (request.auth.credentials as unknown as CallerCredentials).keyId,
        address: request.info.remoteAddress,
        form: callForm(request.method, request.path, sentQuery(request), request.payload),
        logger: request.logger,
        negotiated: json.negotiate(request.headers['accept-encoding'] as string | undefined),
      });
      return withHeaders(h.sentJson(answer), headers);
    };

    // Valid GETs and POSTs, in front of hapi.
    server.plugins['predgate-lean-path'].route(
      '/api/',
      (request) => {
        const [, exchange, name] = /^\/api\/([^/]+)\/([^/]+)$/.exec(request.path) ?? [];
        if (exchange === undefined || name === undefined) return undefined;
        let venue: Venue;
        let read: ReturnType<typeof readArguments>;
        try {
          venue = venueOf(exchange);
          read = readArguments(venue, name, request.method === 'get' ? { query: request.query } : { body: request.body });
        } catch {
          // hapi refuses it, after the key check, as it refuses every invalid call.
          return undefined;
        }
        const form = callForm(request.method, request.path, request.sentQuery, request.method === 'get' ? null : request.body);
        return {
          labels: { exchange, method: name },
          envelope: 'pass-through',
          exchange: venue.id,
          answer(keyId) {
            return answerRead(venue, read, { keyId, address: request.address, form, logger: server.logger, negotiated: request.negotiated });
          },
        };
      },
      { takesPost: true },
    );

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
