import { PredgateError } from '@predgate/core';

/**
 * A venue call held to the request's time budget: past it the caller gets a
 * retryable EXCHANGE_NOT_AVAILABLE instead of waiting on the venue's
 * timeouts and retries. The call itself finishes in the background (a venue
 * request cannot be taken back); its outcome is dropped.
 */
export function withinBudget<T>(call: Promise<T>, budgetMs: number, venue: string, method: string): Promise<T> {
  // One promise and one timer: this runs on every live read.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} did not answer ${method} within ${budgetMs / 1000} s`, {
            exchange: venue,
            detail: { budgetSeconds: budgetMs / 1000, retryAfter: 1 },
          }),
        ),
      budgetMs,
    );
    // Handled either way, so a late failure does not become an unhandled rejection.
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
