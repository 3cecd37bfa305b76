import type { ServerResponse } from 'node:http';
import type { Plugin, Request, ResponseObject } from '@hapi/hapi';
import pino from 'pino';
import type { Bindings, Logger } from 'pino';

declare module '@hapi/hapi' {
  interface Server {
    /** The gateway's logger. */
    logger: Logger;
  }
  interface Request {
    /** The request's logger: its lines carry the request id, method and path. */
    logger: RequestLogger;
  }
  interface PluginProperties {
    'predgate-request-logging': {
      /** Logs an answered request's line, whoever answered it (hapi, or the lean path in front of it). */
      logAnswered(request: AnsweredRequest, res: ServerResponse, responseTime: number): void;
    };
  }
}

/** What a request's log line names it by. */
export interface AnsweredRequest {
  requestId: string;
  method: string;
  path: string;
}

/** What is logged of a request: the methods the gateway calls on `request.logger`. */
export type RequestLogger = Pick<Logger, 'error' | 'warn' | 'info' | 'debug'>;

/**
 * A request's logger whose child logger (bound to the request id, method
 * and path) is made when the request first logs: at the default level most
 * requests never do, and making a child per request serialises its bindings
 * on every request.
 */
class LazyRequestLogger implements RequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly root: Logger,
    private readonly request: Request,
  ) {}

  private get child(): Logger {
    const request = this.request;
    return (this.#child ??= this.root.child({ requestId: request.info.id, method: request.method, path: request.path } satisfies Bindings));
  }

  error: Logger['error'] = (...args: Parameters<Logger['error']>) => this.child.error(...args);
  warn: Logger['warn'] = (...args: Parameters<Logger['warn']>) => this.child.warn(...args);
  info: Logger['info'] = (...args: Parameters<Logger['info']>) => this.child.info(...args);
  debug: Logger['debug'] = (...args: Parameters<Logger['debug']>) => this.child.debug(...args);
}

/**
 * `server.logger`, `request.logger`, and one line per answered request at
 * LOG_LEVEL=debug (at the default level only failed requests cost a line).
 * Request headers (which carry API keys) never reach a log line: a request
 * line holds the request id, method, path and the response's status and
 * headers.
 */
export const requestLoggingPlugin: Plugin<{ logger: Logger; ignorePaths?: readonly string[] }> = {
  name: 'predgate-request-logging',
  register(server, { logger, ignorePaths = [] }) {
    const root = logger.child({}, { serializers: { err: pino.stdSerializers.err, res: pino.stdSerializers.res } });
    const ignored = new Set(ignorePaths);
    server.decorate('server', 'logger', logger);
    server.decorate('request', 'logger', (request: Request) => new LazyRequestLogger(root, request), { apply: true });

    const logAnswered = ({ requestId, method, path }: AnsweredRequest, res: ServerResponse, responseTime: number) =>
      root
        .child({ requestId, method, path } satisfies Bindings)
        .info({ res, responseTime }, `[response] ${method} ${path} ${res.headersSent ? res.statusCode : '-'} (${responseTime}ms)`);
    server.expose('logAnswered', logAnswered);

    server.events.on('response', (request: Request) => {
      if (ignored.has(request.path) || !(logger.isLevelEnabled('debug') || failed(request))) return;
      const { info } = request;
      logAnswered({ requestId: info.id, method: request.method, path: request.path }, request.raw.res, (info.completed || info.responded) - info.received);
    });
    server.ext('onPostStart', () => logger.info(server.info, 'server started'));
    server.ext('onPostStop', () => logger.info(server.info, 'server stopped'));
  },
};

function failed(request: Request): boolean {
  const response = request.response as ResponseObject | null;
  return (response?.statusCode ?? 500) >= 400;
}
