import { PredgateError } from '@predgate/core';

/**
 * A venue call held to the request's time budget: past it the caller gets a
 * retryable EXCHANGE_NOT_AVAILABLE instead of waiting on the venue's
 * timeouts and retries. The call itself finishes in the background (a venue
 * request cannot be taken back); its outcome is dropped.
 */
export async function withinBudget<T>(call: Promise<T>, budgetMs: number, venue: string, method: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} did not answer ${method} within ${budgetMs / 1000} s`, {
            exchange: venue,
            detail: { budgetSeconds: budgetMs / 1000, retryAfter: 1 },
          }),
        ),
      budgetMs,
    );
  });
  // A late failure must not become an unhandled rejection.
  call.catch(() => {});
  try {
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
  }
}
