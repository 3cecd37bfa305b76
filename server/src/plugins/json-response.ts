import { constants as zlib, createBrotliCompress } from 'node:zlib';
import type { Plugin, Request, ResponseObject, ResponseToolkit, RouteExtObject } from '@hapi/hapi';
import { JsonAnswers, brotliQuality, zlibLevel } from './json-answers.js';
import type { Negotiated, StoredAnswer, StoredJsonOptions } from './json-answers.js';

declare module '@hapi/hapi' {
  interface ResponseToolkit {
    /**
     * JSON bytes sent with their length known up front: as they are, or
     * (past `compressMinBytes`) compressed in one call at a fast level.
     * `identity` names the bytes (the catalog generation and the query that
     * made them): what is sent is then kept and reused for every client that
     * asks the same, instead of being made again per request. `gzipped`, where
     * given, makes the same bytes' gzip without compressing them (a page
     * stitched from pieces compressed once): a client that takes gzip is then
     * sent that, whatever else it takes.
     */
    storedJson(json: Buffer, identity?: string, gzipped?: () => Buffer | undefined): Promise<ResponseObject>;
    /**
     * The answer `storedJson` already keeps under `identity` for this
     * request's encoding, if it still has it: a handler asks first and skips
     * building the page at all.
     */
    cachedJson(identity: string): ResponseObject | undefined;
    /** An answer made already (by `JsonAnswers`, for this request's encoding) as hapi sends it. */
    sentJson(answer: StoredAnswer): ResponseObject;
  }

  interface PluginProperties {
    'predgate-json-response': {
      /** The answers hapi's routes send, kept where their identity says; the lean path sends the same. */
      answers: JsonAnswers;
    };
  }
}

/** hapi's own per-request encoders (live answers) at the same levels. */
export const liveCompression = { gzip: { level: zlibLevel }, deflate: { level: zlibLevel } };

function storedResponse(h: ResponseToolkit, answer: StoredAnswer): ResponseObject {
  const response = h.response(answer.body).type('application/json; charset=utf-8').header('content-length', String(answer.body.length));
  return answer.sentAs === 'identity' ? response : response.compressed(answer.sentAs).vary('accept-encoding');
}

/** What the request's `accept-encoding` asks, as hapi negotiated it. */
function negotiatedBy(request: Request): Negotiated {
  return { encoding: request.info.acceptEncoding, takesGzip: answers(request).negotiate(request.headers['accept-encoding'] as string | undefined).takesGzip };
}

function answers(request: Request): JsonAnswers {
  return request.server.plugins['predgate-json-response'].answers;
}

/**
 * Answers compressed as clients ask (`accept-encoding` negotiated by hapi,
 * brotli added to its gzip and deflate), with `vary` and `content-length`
 * right. Stored catalog pages are kept as they are sent, compressed once per
 * catalog generation, for every client that asks the same.
 */
export const jsonResponsePlugin: Plugin<StoredJsonOptions> = {
  name: 'predgate-json-response',
  register(server, options) {
    // Live answers' size is not known when hapi makes the encoder: a 64 KiB window, as for the largest answers compressed inline.
    server.encoder('br', () => createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_LGWIN]: 16 } }));
    const json = new JsonAnswers(options);
    server.expose('answers', json);

    server.decorate('toolkit', 'storedJson', async function (this: ResponseToolkit, body: Buffer, identity?: string, gzipped?: () => Buffer | undefined) {
      return storedResponse(this, await json.answer(body, negotiatedBy(this.request), identity, gzipped));
    });
    server.decorate('toolkit', 'sentJson', function (this: ResponseToolkit, answer: StoredAnswer) {
      return storedResponse(this, answer);
    });
    server.decorate('toolkit', 'cachedJson', function (this: ResponseToolkit, identity: string) {
      const answer = json.cached(identity, negotiatedBy(this.request));
      return answer && storedResponse(this, answer);
    });
  },
};

/**
 * The request's query string as the client sent it (`?` included), for naming
 * its answer: `request.url` would build a WHATWG URL on every request to say
 * the same. Two requests with the same text ask the same thing.
 */
export function sentQuery(request: Request): string {
  const url = request.raw.req.url ?? '';
  const start = url.indexOf('?');
  if (start === -1) return '';
  const end = url.indexOf('#', start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

/** Where a route's cached answers are found by what a request asks, before it is validated. */
export interface CachedAnswers<Form> {
  /** What the request asks, read from it as it arrived; undefined when that cannot be told before the handler. */
  formOf(request: Request): Form | undefined;
  /** The identity its answer is stored under now (the catalog generation changes it); undefined when the cache must not answer. */
  identityOf(form: Form): string | undefined;
  /** Headers that change while the answer does not (how old its data is), set afresh on every answer sent. */
  headersOf?(form: Form): Record<string, string>;
  /** Called for every request answered from the cache. */
  onAnswer?(form: Form): void;
}

/**
 * A route's `onPostAuth` step that sends the answer `answers` names when it
 * is already kept, so validation, argument parsing and the handler are
 * skipped. It runs after the API key is checked and the request budget is
 * spent. `answers` must name only answers the handler itself stores for a
 * request of the same form: the cache then holds one only for requests that
 * passed validation already.
 */
export function cachedAnswerFirst<Form>(answers: CachedAnswers<Form>): RouteExtObject {
  return {
    method(request, h) {
      const form = answers.formOf(request);
      const identity = form === undefined ? undefined : answers.identityOf(form);
      const cached = identity === undefined ? undefined : h.cachedJson(identity);
      if (!cached) return h.continue;
      answers.onAnswer?.(form!);
      for (const [name, value] of Object.entries(answers.headersOf?.(form!) ?? {})) cached.header(name, value);
      return cached.takeover();
    },
  };
}
