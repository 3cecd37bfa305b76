import type { Plugin, Request } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import Joi from 'joi';
import type { CallerCredentials } from '../plugins/auth.js';
import type { RouteEnvelope } from '../plugins/errors.js';
import { documented } from '../docs/route-paths.js';
import { rejectInput } from '../plugins/router.js';
import type { Delivery, EventSpec, Subscription } from './model.js';
import { subscriptionInput } from './model.js';
import { webhookDocs } from './openapi.js';
import type { WebhookService } from './service.js';

const routeApp: { app: RouteEnvelope } = { app: { envelope: 'router' } };
const idParams = Joi.object({ id: Joi.string().pattern(/^wh_[0-9a-f]{24}$/) });
const deliveriesQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(200).default(50),
  offset: Joi.number().integer().min(0).max(10_000).default(0),
});

/**
 * `/v0/webhooks`: each API key's webhook subscriptions, their deliveries and
 * a signed test ping. Answers in the Router's `{data}` / `{error}` form.
 */
export const webhooksPlugin: Plugin<{ webhooks: WebhookService }> = {
  name: 'predgate-webhooks',
  register(server, { webhooks }) {
    const keyOf = (request: Request) => (request.auth.credentials as unknown as CallerCredentials).keyId;
    const id = (request: Request) => (request.params as { id: string }).id;

    server.route([
      {
        method: 'POST',
        path: '/v0/webhooks',
        options: {
          ...routeApp,
          ...documented(webhookDocs.create),
          payload: { maxBytes: 16 * 1024, allow: 'application/json' },
          validate: { payload: subscriptionInput, failAction: rejectInput, options: { abortEarly: true } },
        },
        async handler(request, h) {
          const input = request.payload as { url: string; events: EventSpec[]; description?: string };
          const { subscription, secret } = await webhooks.subscribe(keyOf(request), input);
          return h.response({ data: { ...subscriptionView(subscription), secret } }).code(201);
        },
      },
      {
        method: 'GET',
        path: '/v0/webhooks',
        options: { ...routeApp, ...documented(webhookDocs.list) },
        handler: (request) => ({ data: webhooks.list(keyOf(request)).map(subscriptionView) }),
      },
      {
        method: 'GET',
        path: '/v0/webhooks/{id}',
        options: { ...routeApp, ...documented(webhookDocs.get), validate: { params: idParams, failAction: rejectInput } },
        handler: (request) => ({ data: subscriptionView(webhooks.get(keyOf(request), id(request))) }),
      },
      {
        method: 'DELETE',
        path: '/v0/webhooks/{id}',
        options: { ...routeApp, ...documented(webhookDocs.delete), validate: { params: idParams, failAction: rejectInput } },
        async handler(request, h) {
          await webhooks.unsubscribe(keyOf(request), id(request));
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/v0/webhooks/{id}/deliveries',
        options: { ...routeApp, ...documented(webhookDocs.deliveries), validate: { params: idParams, query: deliveriesQuery, failAction: rejectInput } },
        handler(request) {
          const page = request.query as { limit: number; offset: number };
          const { items, total } = webhooks.deliveriesOf(keyOf(request), id(request), page);
          return { data: items.map(deliveryView), meta: { count: items.length, limit: page.limit, offset: page.offset, total } };
        },
      },
      {
        method: 'POST',
        path: '/v0/webhooks/{id}/test',
        options: { ...routeApp, ...documented(webhookDocs.test), validate: { params: idParams, failAction: rejectInput } },
        async handler(request, h) {
          const delivery = await webhooks.ping(keyOf(request), id(request));
          return h.response({ data: delivery ? deliveryView(delivery) : null }).code(202);
        },
      },
    ]);

    // Other verbs on these paths are 405 with the verbs that work.
    const verbs: Record<string, string> = {
      '/v0/webhooks': 'GET, POST',
      '/v0/webhooks/{id}': 'GET, DELETE',
      '/v0/webhooks/{id}/deliveries': 'GET',
      '/v0/webhooks/{id}/test': 'POST',
    };
    for (const [path, allow] of Object.entries(verbs)) {
      server.route({
        method: '*',
        path,
        options: routeApp,
        handler(request) {
          throw new PredgateError('BAD_REQUEST', `${request.method.toUpperCase()} is not allowed on ${path}: use ${allow}`, { status: 405, detail: { allow } });
        },
      });
    }
  },
};

/** A subscription as its owner sees it: never the key it belongs to, and the secret only once, at creation. */
function subscriptionView(subscription: Subscription) {
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    ...(subscription.description ? { description: subscription.description } : {}),
    createdAt: new Date(subscription.createdAt).toISOString(),
  };
}

function deliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    kind: delivery.kind,
    state: delivery.state,
    createdAt: new Date(delivery.createdAt).toISOString(),
    nextAttemptAt: delivery.state === 'pending' ? new Date(delivery.nextAt).toISOString() : null,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: new Date(attempt.at).toISOString() })),
    payload: JSON.parse(delivery.body) as unknown,
  };
}
