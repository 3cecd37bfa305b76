import type { Logger } from 'pino';

/**
 * Keeps the gateway up through errors nothing awaited: an unhandled rejection
 * or an uncaught exception (a throw in a timer, a listener) is logged with its
 * name and message and counted, and the process goes on serving. Every
 * request, sweep and venue call holds its own state, so one failed callback
 * leaves nothing shared half-changed. Returns the function that removes the guard.
 */
export function guardProcess(logger: Logger, onError: (kind: 'unhandledRejection' | 'uncaughtException') => void): () => void {
  const report = (kind: 'unhandledRejection' | 'uncaughtException') => (reason: unknown) => {
    onError(kind);
    // Name, message and stack only: an error's own members may quote a request or a venue answer.
    const error = reason instanceof Error ? { name: reason.name, message: reason.message, stack: reason.stack } : { value: String(reason).slice(0, 200) };
    logger.error({ kind, error }, 'an error escaped every handler; the gateway keeps running');
  };
  const onRejection = report('unhandledRejection');
  const onException = report('uncaughtException');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
