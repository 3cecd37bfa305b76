import { toJsonSchema } from '@predgate/core';
import type { RouteDoc } from '../docs/route-paths.js';
import { subscriptionInput } from './model.js';

const routerFailure = { description: 'Router error envelope.', content: { 'application/json': { schema: { $ref: '#/components/schemas/RouterError' } } } };

const subscription = {
  type: 'object',
  required: ['id', 'url', 'events', 'createdAt'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    events: (toJsonSchema(subscriptionInput).properties as Record<string, unknown>).events,
    description: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const delivery = {
  type: 'object',
  required: ['id', 'kind', 'state', 'createdAt', 'attempts', 'payload'],
  properties: {
    id: { type: 'string', description: 'The `webhook-id` header: the same notification always has the same id.' },
    kind: { type: 'string' },
    state: { type: 'string', enum: ['pending', 'delivered', 'failed', 'unsubscribed'] },
    createdAt: { type: 'string', format: 'date-time' },
    nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { at: { type: 'string', format: 'date-time' }, durationMs: { type: 'integer' }, status: { type: 'integer' }, error: { type: 'string' } },
      },
    },
    payload: { type: 'object', description: 'The body sent: `{type, timestamp, data}`.' },
  },
};

const json = (schema: unknown) => ({ 'application/json': { schema } });
const tags = ['Webhooks'];

/** How each `/v0/webhooks` route appears in the OpenAPI document; parameters and the request body come from the routes' own schemas. */
export const webhookDocs = {
  create: {
    operationId: 'createWebhook',
    summary: 'Subscribes a receiver URL to kinds of notification; the answer holds the signing secret (`whsec_...`), shown this once.',
    tags,
    responses: {
      '201': {
        description: 'The subscription and its secret.',
        content: json({
          type: 'object',
          required: ['data'],
          properties: { data: { ...subscription, properties: { ...subscription.properties, secret: { type: 'string' } } } },
        }),
      },
      '400': routerFailure,
      '401': routerFailure,
    },
  },
  list: {
    operationId: 'listWebhooks',
    summary: 'This API key’s subscriptions (never their secrets).',
    tags,
    responses: {
      '200': {
        description: 'The subscriptions.',
        content: json({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: subscription } } }),
      },
    },
  },
  get: {
    operationId: 'getWebhook',
    summary: 'One subscription of this API key.',
    tags,
    responses: {
      '200': { description: 'The subscription.', content: json({ type: 'object', required: ['data'], properties: { data: subscription } }) },
      '404': routerFailure,
    },
  },
  delete: {
    operationId: 'deleteWebhook',
    summary: 'Ends a subscription; its pending deliveries are dropped.',
    tags,
    responses: { '204': { description: 'Deleted.' }, '404': routerFailure },
  },
  deliveries: {
    operationId: 'webhookDeliveries',
    summary: 'The subscription’s deliveries, newest first, with every attempt and its outcome.',
    tags,
    responses: {
      '200': {
        description: 'A page of deliveries.',
        content: json({
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { type: 'array', items: delivery },
            meta: { type: 'object', properties: { count: { type: 'integer' }, total: { type: 'integer' } } },
          },
        }),
      },
      '404': routerFailure,
    },
  },
  test: {
    operationId: 'testWebhook',
    summary: 'Sends a signed `webhook.ping` to the receiver.',
    tags,
    responses: {
      '202': { description: 'The ping’s delivery.', content: json({ type: 'object', required: ['data'], properties: { data: delivery } }) },
      '404': routerFailure,
    },
  },
} satisfies Record<string, RouteDoc>;
