import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { TokenBucket } from 'limiter';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { PredgateError } from '../errors.js';
import { silentLogger } from '../runtime.js';
import type { Logger } from '../runtime.js';
import { VenueCircuit } from './circuit.js';
import type { CircuitOptions, CircuitState } from './circuit.js';
import { isRetryableTransport, isUnreachable, mapTransportError, mapVenueFailure, retryAfterSeconds } from './failures.js';
import type { VenueFailure } from './failures.js';
import { OriginFallback } from './origin-fallback.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number | boolean>;

export interface RateLimitOptions {
  /** Requests allowed per `intervalMs` on average. */
  requests: number;
  intervalMs: number;
  /** Largest burst; defaults to `requests`. */
  burst?: number;
}

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  minDelayMs: number;
  maxDelayMs: number;
}

export interface TimeoutOptions {
  connectMs: number;
  /** Limit on waiting for the response headers, and separately for the body. */
  requestMs: number;
}

export interface VenueHttpClientOptions {
  /** Venue id, named in errors and logs. */
  venue: string;
  rateLimit?: RateLimitOptions;
  retry?: Partial<RetryOptions>;
  timeouts?: Partial<TimeoutOptions>;
  /** Sent with every request (a browser-like User-Agent for venues behind Cloudflare, say). */
  headers?: Record<string, string>;
  /** The venue's own reading of an error answer; `undefined` falls back to the status mapping. */
  mapError?: (failure: VenueFailure) => PredgateError | undefined;
  /** Largest answer read from the venue, in bytes (8 MiB by default); a request may raise it for an endpoint that needs more. */
  maxBodyBytes?: number;
  /** When the venue's circuit opens and closes; `false` turns it off. */
  circuit?: Partial<CircuitOptions> | false;
  /**
   * Other origins serving the same API, by the origin requests name: asked in
   * order when a host does not resolve or accept the connection, and kept
   * while they work, so a venue host that disappears is not an outage.
   */
  fallbackOrigins?: Record<string, readonly string[]>;
}

export interface VenueRequest {
  method?: HttpMethod;
  url: string;
  query?: Record<string, QueryValue>;
  /** Serialised as JSON unless it is already a string (signed bodies must be sent byte for byte). */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Whether a failed attempt may be repeated. Defaults to true for GET and HEAD only:
   * a write (an order, a cancel) is never retried behind the caller's back.
   */
  idempotent?: boolean;
  /** This endpoint's answer may be larger than the client's `maxBodyBytes`. */
  maxBodyBytes?: number;
  /**
   * Integers past 2^53 in the JSON answer are handed over as their exact
   * digits (a string) instead of the nearest double. The parse is slower, so
   * only endpoints known to send such numbers (base units, token ids, quantities) ask for it.
   */
  exactIntegers?: boolean;
  /** `json` (the default): a success answer that is not JSON is refused; `text`: the body as it came. */
  expect?: 'json' | 'text';
}

export interface VenueResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
}

export interface VenueHttpClient {
  readonly venue: string;
  /** The state of the venue's circuit breaker (`closed` while calls go through). */
  readonly circuit: { state: CircuitState; retryAfter?: number };
  /** Sends the request; resolves with a 2xx answer, rejects with a PredgateError otherwise. */
  request<T = unknown>(request: VenueRequest): Promise<VenueResponse<T>>;
  /** `request` that resolves with the parsed body only. */
  json<T = unknown>(request: VenueRequest): Promise<T>;
}

export interface HttpClientFactory {
  /** One client per venue id: later calls for the same venue share its connection pool and rate limit. */
  (options: VenueHttpClientOptions): VenueHttpClient;
  /** Closes every connection pool the factory opened, dropping requests still waiting on a venue. */
  close(): Promise<void>;
  /** Every venue's circuit state, for status pages and metrics. */
  circuits(): Record<string, { state: CircuitState; retryAfter?: number }>;
  /** Per venue, the endpoints that answered with `Deprecation` or `Sunset` headers, for status pages. */
  deprecations(): Record<string, DeprecationNotice[]>;
  /** Per venue, the fallback origins in use instead of the ones requests name, for status pages. */
  fallbacks(): Record<string, Record<string, string>>;
}

/** An endpoint the venue says is going away (RFC 9745 `Deprecation`, RFC 8594 `Sunset`), as first seen. */
export interface DeprecationNotice {
  path: string;
  deprecation?: string;
  sunset?: string;
  /** Where the venue points to instead (`Link` with `rel="deprecation"`, `successor-version` or `sunset`). */
  link?: string;
  firstSeenAt: number;
}

export interface HttpClientFactoryOptions {
  /** Replaces the network, for tests (an undici MockAgent). */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** Retry settings every client starts from (a client's own win); tests shorten the delays. */
  retry?: Partial<RetryOptions>;
}

const defaultRetry: RetryOptions = { maxRetries: 2, minDelayMs: 250, maxDelayMs: 10_000 };
const defaultTimeouts: TimeoutOptions = { connectMs: 5_000, requestMs: 15_000 };
const defaultMaxBodyBytes = 8 * 1024 * 1024;
const retryableStatuses = new Set([429, 500, 502, 503, 504]);

export function createHttpClientFactory(options: HttpClientFactoryOptions = {}): HttpClientFactory {
  const clients = new Map<string, VenueHttpClient>();
  const ownedAgents: Agent[] = [];
  const logger = options.logger ?? silentLogger;

  const factory = (clientOptions: VenueHttpClientOptions): VenueHttpClient => {
    const existing = clients.get(clientOptions.venue);
    if (existing) return existing;
    let base = options.dispatcher;
    if (!base) {
      const timeouts = { ...defaultTimeouts, ...clientOptions.timeouts };
      const agent = new Agent({
        connect: { timeout: timeouts.connectMs },
        headersTimeout: timeouts.requestMs,
        bodyTimeout: timeouts.requestMs,
        keepAliveTimeout: 30_000,
      });
      ownedAgents.push(agent);
      base = agent;
    }
    const client = createVenueHttpClient(
      base,
      { ...clientOptions, retry: { ...options.retry, ...clientOptions.retry } },
      logger.child({ venue: clientOptions.venue }),
      new DeprecationLog(),
    );
    clients.set(clientOptions.venue, client);
    return client;
  };

  return Object.assign(factory, {
    async close() {
      for (const client of clients.values()) (client as VenueHttpClient & { shutdown?: () => void }).shutdown?.();
      clients.clear();
      // Requests still open here outlived their callers (a stalled venue past the request budget): drop them.
      await Promise.all(ownedAgents.splice(0).map((agent) => agent.destroy()));
    },
    circuits() {
      return Object.fromEntries([...clients].map(([venue, client]) => [venue, client.circuit]));
    },
    deprecations() {
      return Object.fromEntries(
        [...clients].map(([venue, client]) => [venue, (client as VenueHttpClient & { deprecations: DeprecationLog }).deprecations.notices()]),
      );
    },
    fallbacks() {
      return Object.fromEntries(
        [...clients].flatMap(([venue, client]) => {
          const active = (client as VenueHttpClient & { fallback?: OriginFallback }).fallback?.active() ?? {};
          return Object.keys(active).length > 0 ? [[venue, active]] : [];
        }),
      );
    },
  });
}

/** Most endpoints a venue can flag before the log stops growing: the headers are the venue's to send. */
const maxNotices = 50;

/** The endpoints of one venue that announced their end, each logged once. */
class DeprecationLog {
  private readonly byPath = new Map<string, DeprecationNotice>();

  /** Records the answer's notice; true the first time an endpoint sends one. */
  note(path: string, headers: Answer['headers']): DeprecationNotice | undefined {
    const deprecation = headerText(headers.deprecation);
    const sunset = headerText(headers.sunset);
    if ((deprecation === undefined && sunset === undefined) || this.byPath.has(path) || this.byPath.size >= maxNotices) return undefined;
    const link = headerText(headers.link)
      ?.split(',')
      .find((part) => /rel="?(deprecation|successor-version|sunset)"?/i.test(part))
      ?.match(/<([^>]{1,500})>/)?.[1];
    const notice: DeprecationNotice = {
      path,
      ...(deprecation === undefined ? {} : { deprecation }),
      ...(sunset === undefined ? {} : { sunset }),
      ...(link === undefined ? {} : { link }),
      firstSeenAt: Date.now(),
    };
    this.byPath.set(path, notice);
    return notice;
  }

  notices(): DeprecationNotice[] {
    return [...this.byPath.values()];
  }
}

/** A header's text, bounded: a venue's header value is not ours to store whole. */
function headerText(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim().slice(0, 200);
}

function createVenueHttpClient(base: Dispatcher, options: VenueHttpClientOptions, logger: Logger, deprecations: DeprecationLog): VenueHttpClient {
  const retry = { ...defaultRetry, ...options.retry };
  const bucket = options.rateLimit ? createBucket(options.rateLimit) : undefined;
  const breaker = options.circuit === false ? undefined : new VenueCircuit(options.venue, options.circuit);
  const fallback = options.fallbackOrigins ? new OriginFallback({ origins: options.fallbackOrigins }) : undefined;

  const client: VenueHttpClient & { shutdown(): void; deprecations: DeprecationLog; fallback?: OriginFallback } = {
    venue: options.venue,
    deprecations,
    ...(fallback ? { fallback } : {}),

    get circuit() {
      return breaker ? { state: breaker.state, ...(breaker.retryAfter !== undefined ? { retryAfter: breaker.retryAfter } : {}) } : { state: 'closed' as const };
    },

    shutdown() {
      breaker?.shutdown();
    },

    request<T>(req: VenueRequest): Promise<VenueResponse<T>> {
      return breaker ? breaker.run(() => send<T>(req)) : send<T>(req);
    },

    async json<T>(req: VenueRequest): Promise<T> {
      return (await client.request<T>(req)).data;
    },
  };

  async function send<T>(req: VenueRequest): Promise<VenueResponse<T>> {
    const method = req.method ?? 'GET';
    const idempotent = req.idempotent ?? (method === 'GET' || method === 'HEAD');
    const url = withQuery(req.url, req.query);
    const body = req.body === undefined || typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...req.headers };
    if (body !== undefined && !hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';

    if (bucket) await bucket.removeTokens(1);
    const started = performance.now();
    const path = url.pathname;
    const maxBodyBytes = req.maxBodyBytes ?? options.maxBodyBytes ?? defaultMaxBodyBytes;
    let answer!: Answer;
    const candidates = fallback?.candidates(url) ?? [url];
    for (const [index, target] of candidates.entries()) {
      try {
        answer = await attempts(target, { method, headers, body }, maxBodyBytes, idempotent);
      } catch (error) {
        // Nothing was sent to a host that cannot be reached, so even a write may go to the next one.
        if (index < candidates.length - 1 && isUnreachable(error)) {
          logger.warn({ origin: target.origin, next: candidates[index + 1]!.origin }, 'venue host unreachable; trying the next');
          continue;
        }
        throw mapTransportError(error, options.venue);
      }
      if (fallback?.answered(url.origin, target.origin)) logger.warn({ named: url.origin, origin: target.origin }, 'venue requests now go to this host');
      break;
    }
    const elapsedMs = Math.round(performance.now() - started);
    logger.debug({ method, path, status: answer.statusCode, elapsedMs }, 'venue request');
    const notice = deprecations.note(path, answer.headers);
    if (notice) logger.warn({ ...notice }, 'venue endpoint announces its deprecation');

    const { text } = answer;
    const data = parseBody(text, answer.headers['content-type'], req.exactIntegers ?? false);
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      if (data === invalidJson) {
        throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${options.venue} answered with malformed JSON`, {
          exchange: options.venue,
          detail: { status: answer.statusCode, path },
        });
      }
      // An HTML error page with a 200 (a proxy, a maintenance page) is not an answer to read data from.
      if ((req.expect ?? 'json') === 'json' && typeof data === 'string') {
        throw new PredgateError(
          'EXCHANGE_NOT_AVAILABLE',
          `${options.venue} answered with ${contentTypeOf(answer.headers['content-type'])} where JSON was expected`,
          {
            exchange: options.venue,
            detail: { status: answer.statusCode, path, contentType: contentTypeOf(answer.headers['content-type']) },
          },
        );
      }
      return { status: answer.statusCode, headers: answer.headers, data: data as T };
    }
    const failure: VenueFailure = {
      venue: options.venue,
      method,
      origin: url.origin,
      path,
      status: answer.statusCode,
      headers: answer.headers,
      body: data === invalidJson ? text : data,
    };
    throw options.mapError?.(failure) ?? mapVenueFailure(failure);
  }

  /**
   * Sends the request to one host, and an idempotent one again after a pause
   * while it fails in a way worth another attempt (a retryable status or
   * network failure). When attempts run out the last answer is handed back, so
   * the venue's own error body still reaches the mapping. A loop here rather
   * than undici's retry interceptor: that one relies on an answer staying
   * paused while it waits, which undici's MockAgent, the replayer of every
   * adapter's recorded fixtures, does not do.
   */
  async function attempts(target: URL, request: ExchangeRequest, limit: number, idempotent: boolean): Promise<Answer> {
    for (let attempt = 1; ; attempt += 1) {
      const last = !idempotent || attempt > retry.maxRetries;
      let answer: Answer;
      try {
        answer = await exchange(base, target, request, limit, options.venue);
      } catch (error) {
        if (last || !isRetryableTransport(error)) throw error;
        await pause(retryDelayMs(retry, attempt, undefined));
        continue;
      }
      if (last || !retryableStatuses.has(answer.statusCode)) return answer;
      await pause(retryDelayMs(retry, attempt, answer.headers['retry-after']));
    }
  }
  return client;
}

/** A plain timer, so tests can run the retry schedule on a virtual clock. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The wait before another attempt: the venue's Retry-After when it asks for one, else doubling from `minDelayMs`; never past `maxDelayMs`. */
function retryDelayMs(retry: RetryOptions, attempt: number, retryAfter: string | string[] | undefined): number {
  const asked = (retryAfterSeconds(retryAfter) ?? 0) * 1000;
  return Math.min(asked > 0 ? asked : retry.minDelayMs * 2 ** (attempt - 1), retry.maxDelayMs);
}

function createBucket(limit: RateLimitOptions): TokenBucket {
  const burst = limit.burst ?? limit.requests;
  const bucket = new TokenBucket({ bucketSize: burst, tokensPerInterval: limit.requests, interval: limit.intervalMs });
  // The library starts empty; a venue's budget is available at once.
  bucket.content = burst;
  return bucket;
}

function withQuery(url: string, query: VenueRequest['query']): URL {
  const target = new URL(url);
  if (!query) return target;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) target.searchParams.append(key, String(item));
    } else {
      target.searchParams.append(key, String(value));
    }
  }
  return target;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** One request as sent to the venue. */
interface ExchangeRequest {
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A venue's answer as it arrived: status, headers and the whole body as text. */
interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends one request and reads its answer whole, refused past `limit` bytes: a
 * venue (or something posing as one) sending a huge answer must not take the
 * gateway's memory with it. Read by a dispatch handler, not `request()`: a
 * venue answer is small and read whole, so a body stream and its async
 * iterator per call were pure cost (about 40 µs of a live call's CPU).
 */
function exchange(dispatcher: Dispatcher, target: URL, request: ExchangeRequest, limit: number, venue: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Answer['headers'] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (controller: Dispatcher.DispatchController) => {
      refused = true;
      controller.abort(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} answered with more than ${limit} bytes`, {
          exchange: venue,
          detail: { status: statusCode, path: target.pathname, maxBodyBytes: limit },
        }),
      );
    };
    dispatcher.dispatch(
      { origin: target.origin, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers, body: request.body },
      {
        // undici tells this handler's kind by this method: without it, it is read as one of the old callback kind.
        onRequestStart() {},
        onResponseStart(controller, status, answerHeaders) {
          statusCode = status;
          headers = answerHeaders;
          const declared = Number(answerHeaders['content-length']);
          if (Number.isFinite(declared) && declared > limit) refuse(controller);
        },
        onResponseData(controller, chunk) {
          if (refused) return;
          size += chunk.length;
          if (size > limit) refuse(controller);
          else chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({ statusCode, headers, text: Buffer.concat(chunks, size).toString('utf8') });
        },
        // A venue can still reset or stall while sending the body, after the headers.
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

function contentTypeOf(header: string | string[] | undefined): string {
  return (
    String(header ?? 'no content type')
      .split(';')[0]!
      .trim() || 'no content type'
  );
}

const invalidJson = Symbol('invalid JSON');

/** An integer past 2^53 as its digits; every other number as JSON.parse reads it. */
function exactInteger(digits: string): number | string {
  return isInteger(digits) && !isSafeNumber(digits) ? digits : Number(digits);
}

function parseBody(text: string, contentType: string | string[] | undefined, exactIntegers: boolean): unknown {
  if (text === '') return null;
  const type = String(contentType ?? '');
  const looksJson = type.includes('json') || /^\s*[[{"]/.test(text);
  if (!looksJson) return text;
  try {
    return exactIntegers ? parseLossless(text, null, exactInteger) : JSON.parse(text);
  } catch {
    return invalidJson;
  }
}
