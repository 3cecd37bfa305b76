import { argumentBounds } from '@predgate/core';
import Joi from 'joi';
import { maxUrlLength } from './url-guard.js';

/** The notifications a subscription can ask for; `webhook.ping` is what the test endpoint sends. */
export const notificationKinds = ['market.resolved', 'market.closed', 'market.created', 'price.crossed', 'book.changed'] as const;
export type NotificationKind = (typeof notificationKinds)[number] | 'webhook.ping';

/** Kinds found by diffing a venue's sweep against the one before. */
export const sweepKinds: ReadonlySet<NotificationKind> = new Set(['market.resolved', 'market.closed', 'market.created', 'price.crossed']);

export interface MarketFilter {
  sourceExchange?: string;
  /** Lower-cased substring of the market's or its event's title or slug (the Router's `q`). */
  q?: string;
  /** A normalised category or a venue's word for one, as the Router takes it. */
  category?: string;
  marketIds?: string[];
}

export interface PriceFilter {
  sourceExchange: string;
  outcomeId: string;
  /** A price (fraction of one); the notification fires when the outcome's price moves across it. */
  level: number;
  direction: 'above' | 'below' | 'either';
}

export interface BookFilter {
  sourceExchange: string;
  outcomeId: string;
  /** At most one notification per this many seconds; the newest book is the one sent. */
  throttleSeconds: number;
}

export type EventSpec =
  | { kind: 'market.resolved' | 'market.closed' | 'market.created'; filter: MarketFilter }
  | { kind: 'price.crossed'; filter: PriceFilter }
  | { kind: 'book.changed'; filter: BookFilter };

export interface Subscription {
  id: string;
  /** The API key that made it; only that key sees or deletes it. */
  keyId: string;
  url: string;
  events: EventSpec[];
  description?: string;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'unsubscribed';

export interface Attempt {
  at: number;
  durationMs: number;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why no answer counted (timeout, refused connection, blocked address). */
  error?: string;
}

export interface Delivery {
  /** The `webhook-id`: the same notification always has the same id, so neither side acts on it twice. */
  id: string;
  subscriptionId: string;
  kind: NotificationKind;
  /** The exact bytes signed and sent. */
  body: string;
  createdAt: number;
  state: DeliveryState;
  attempts: Attempt[];
  /** When the next attempt is due (pending deliveries). */
  nextAt: number;
}

/** A notification before it is addressed to subscriptions. */
export interface Notification {
  kind: NotificationKind;
  /** Names the change, so that finding it twice (a re-read sweep, a replayed book) yields the same delivery id. */
  key: string;
  data: Record<string, unknown>;
}

const word = Joi.string().max(argumentBounds.word);
const id = Joi.string().min(1).max(argumentBounds.id);
const marketFilter = Joi.object<MarketFilter>({
  sourceExchange: word,
  q: Joi.string().max(argumentBounds.text),
  category: word,
  marketIds: Joi.array().items(id).max(100),
}).default({});

/** The body of `POST /v0/webhooks`; every member bounded. */
export const subscriptionInput = Joi.object({
  url: Joi.string().max(maxUrlLength).required(),
  description: Joi.string().max(200),
  events: Joi.array()
    .min(1)
    .max(10)
    .required()
    .items(
      Joi.object({
        kind: Joi.string()
          .valid(...notificationKinds)
          .required(),
        filter: Joi.when('kind', {
          switch: [
            {
              is: 'price.crossed',
              then: Joi.object<PriceFilter>({
                sourceExchange: word.required(),
                outcomeId: id.required(),
                level: Joi.number().greater(0).less(1).required(),
                direction: Joi.string().valid('above', 'below', 'either').default('either'),
              }).required(),
            },
            {
              is: 'book.changed',
              then: Joi.object<BookFilter>({
                sourceExchange: word.required(),
                outcomeId: id.required(),
                throttleSeconds: Joi.number().min(1).max(86_400).default(10),
              }).required(),
            },
          ],
          otherwise: marketFilter,
        }).description(
          'market.* kinds: {sourceExchange?, q?, category?, marketIds?}; price.crossed: {sourceExchange, outcomeId, level (0-1), direction: above|below|either}; book.changed: {sourceExchange, outcomeId, throttleSeconds (default 10)}.',
        ),
      }),
    ),
});
