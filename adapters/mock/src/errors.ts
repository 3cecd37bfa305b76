import { PredgateError } from '@predgate/core';
import type { Market } from '@predgate/core';
import { venueId } from './simulation/catalog.js';

/** The simulated venue's refusals, in the unified codes a real venue's answers are read into. */

export function eventNotFound(eventTicker: string): PredgateError {
  return new PredgateError('EVENT_NOT_FOUND', `Event not found: ${eventTicker}`, { exchange: venueId });
}

export function outcomeNotFound(outcomeId: string): PredgateError {
  return new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId}`, { exchange: venueId });
}

/** A market no longer trading has no book, as on the real venues. */
export function noBook(outcomeId: string, status: Market['status']): PredgateError {
  return new PredgateError('NOT_FOUND', `No orderbook exists for ${outcomeId}: the market is ${status}`, { exchange: venueId });
}

/** The book request named a market: which of its outcomes is meant must be said. */
export function outcomeChoiceNeeded(message: string): PredgateError {
  return new PredgateError('VALIDATION_ERROR', message, { exchange: venueId, detail: { argument: 'params', path: 'params.outcome' } });
}

export function notSupported(message: string): PredgateError {
  return new PredgateError('NOT_SUPPORTED', message, { exchange: venueId });
}

export function notBuiltHere(): PredgateError {
  return new PredgateError('INVALID_ORDER', 'Not an order built by the mock venue', { exchange: venueId });
}

export function builtOrderExpired(message: string, expiry: number): PredgateError {
  return new PredgateError('BUILT_ORDER_EXPIRED', message, { exchange: venueId, detail: { expiry: new Date(expiry).toISOString() } });
}
