import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, createBrotliCompress, gzip, gzipSync } from 'node:zlib';
import type { Plugin, Request, ResponseObject, ResponseToolkit, RouteExtObject } from '@hapi/hapi';
import Accept from '@hapi/accept';
import { LRUCache } from 'lru-cache';
import { markReplayable } from './answer-replay.js';
import { AnswerStore } from './answer-store.js';

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
  }

  interface PluginProperties {
    'predgate-json-response': {
      /** The answer kept under `identity` for a client whose negotiated encoding is `encoding`, while the cache keeps it. */
      storedAnswer(encoding: string, identity: string, takesGzip: boolean): StoredAnswer | undefined;
    };
  }
}

export interface StoredJsonOptions {
  /** Bytes of stored answers kept, as they are sent. */
  cacheBytes: number;
  /** How long a stored answer is reused: a shared MongoDB catalog can change under another gateway's sweeps. */
  cacheSeconds: number;
}

/**
 * Answers under this size are sent as they are, catalog answers and live
 * ones alike: most requests ask something no one asked just before, so each
 * compression is made for one answer, and on a few KiB the encoder costs
 * more time than the bytes it saves.
 */
export const compressMinBytes = 4096;
/**
 * Brotli quality for answers made per request (uncached catalog pages, live
 * answers). Quality 1 compresses a catalog page to about a tenth, within a
 * few percent of gzip's default level, at several times the speed of
 * quality 5, and its encoder state is small to allocate.
 */
const brotliQuality = 1;
/** gzip and deflate for clients that do not take brotli: the fastest level, for the same reason. */
const zlibLevel = 1;
/**
 * Answers up to this size are compressed on the event loop, at once; larger
 * ones in libuv's pool, where they do not hold up other requests.
 */
const compressInlineBytes = 32 * 1024;

/**
 * log2 of the window an answer of `length` bytes needs, within `low` and
 * `high`: every encoder allocates (and zlib clears) state sized by its
 * window, and an answer gains nothing from a window larger than itself.
 */
const windowBitsFor = (length: number, low: number, high: number) => Math.min(high, Math.max(low, Math.ceil(Math.log2(length + 1))));

const brotliOptions = (length: number) => ({
  params: {
    [zlib.BROTLI_PARAM_QUALITY]: brotliQuality,
    [zlib.BROTLI_PARAM_LGWIN]: windowBitsFor(length, 10, 16),
    [zlib.BROTLI_PARAM_SIZE_HINT]: length,
  },
});
/** zlib's hash table follows the window (memLevel 8 is its default, for a 32 KiB window). */
const gzipOptions = (length: number) => {
  const windowBits = windowBitsFor(length, 9, 15);
  return { level: zlibLevel, windowBits, memLevel: Math.max(1, windowBits - 7) };
};
const compressors: Record<string, (input: Buffer) => Buffer | Promise<Buffer>> = {
  br: (input) =>
    input.length <= compressInlineBytes
      ? brotliCompressSync(input, brotliOptions(input.length))
      : promisify(brotliCompress)(input, brotliOptions(input.length)),
  gzip: (input) => (input.length <= compressInlineBytes ? gzipSync(input, gzipOptions(input.length)) : promisify(gzip)(input, gzipOptions(input.length))),
};

/**
 * Bytes of answers sent once kept until asked again (see AnswerStore): room
 * for a few dozen pages, so a request repeated at once is still found, while
 * answers nobody asks again die young.
 */
const onceBytes = 4 * 1024 * 1024;

/** Whether each `accept-encoding` seen takes gzip: a few distinct headers, asked on every stored answer. */
const gzipTaken = new LRUCache<string, boolean>({ max: 256 });

/** Whether the request takes gzip (at any weight above zero), though hapi may have negotiated another coding for it. */
function takesGzip(request: Request): boolean {
  const header = (request.headers['accept-encoding'] as string | undefined) ?? '';
  let taken = gzipTaken.get(header);
  if (taken === undefined) {
    try {
      taken = Accept.encoding(header, ['gzip']) === 'gzip';
    } catch {
      // hapi answers a malformed header as identity.
      taken = false;
    }
    gzipTaken.set(header, taken);
  }
  return taken;
}

/** hapi's own per-request encoders (live answers) at the same levels. */
export const liveCompression = { gzip: { level: zlibLevel }, deflate: { level: zlibLevel } };

function cacheKey(sentAs: string, identity: string): string {
  return `${sentAs}\n${identity}`;
}

/**
 * How stored JSON of `length` bytes goes to a client whose negotiated
 * encoding is `encoding`: compressed once here, sent as it is, or (undefined)
 * left to hapi's per-request encoder, whose output is not kept.
 */
function sentAs(encoding: string, length: number): string | undefined {
  if (encoding === 'identity' || length < compressMinBytes) return 'identity';
  return compressors[encoding] ? encoding : undefined;
}

/** Bytes kept for an answer, and the content coding they are in (`identity`: none). */
export interface StoredAnswer {
  body: Buffer;
  sentAs: string;
}

function storedResponse(h: ResponseToolkit, answer: StoredAnswer): ResponseObject {
  const response = h.response(answer.body).type('application/json; charset=utf-8').header('content-length', String(answer.body.length));
  return answer.sentAs === 'identity' ? response : response.compressed(answer.sentAs).vary('accept-encoding');
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
    const stored = new AnswerStore({ maxBytes: options.cacheBytes, onceBytes: Math.min(options.cacheBytes, onceBytes), ttlMs: options.cacheSeconds * 1000 });
    // Concurrent requests for the same page share one compression.
    const inFlight = new Map<string, Promise<Buffer>>();
    const compressOnce = (key: string, compress: (input: Buffer) => Buffer | Promise<Buffer>, json: Buffer): Buffer | Promise<Buffer> => {
      let pending = inFlight.get(key);
      if (pending) return pending;
      const compressed = compress(json);
      if (Buffer.isBuffer(compressed)) return compressed;
      pending = compressed.finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
      return pending;
    };

    server.decorate('toolkit', 'storedJson', async function (this: ResponseToolkit, json: Buffer, identity?: string, gzipped?: () => Buffer | undefined) {
      const negotiated = sentAs(this.request.info.acceptEncoding, json.length);
      const stitched = gzipped !== undefined && identity !== undefined && negotiated !== 'identity' && takesGzip(this.request);
      const coding = stitched ? 'gzip' : negotiated;
      if (coding === undefined) {
        return this.response(json).type('application/json; charset=utf-8').header('content-length', String(json.length));
      }
      // An answer made for this request alone (a live one): compressed in one call, not through a stream encoder made for it, and not kept.
      if (identity === undefined) return storedResponse(this, { body: coding === 'identity' ? json : await compressors[coding]!(json), sentAs: coding });
      const key = cacheKey(coding, identity);
      let body = stored.get(key);
      if (!body) {
        const compress = compressors[coding];
        body = (stitched ? gzipped() : undefined) ?? (compress ? await compressOnce(key, compress, json) : json);
        stored.set(key, body);
      }
      return storedResponse(this, { body, sentAs: coding });
    });

    const storedAnswer = (encoding: string, identity: string, gzip: boolean): StoredAnswer | undefined => {
      const compressed = compressors[encoding] ? stored.get(cacheKey(encoding, identity)) : undefined;
      if (compressed) return { body: compressed, sentAs: encoding };
      // A page stitched from gzip pieces is kept as gzip whatever else the client who asked for it took.
      const stitched = gzip && encoding !== 'identity' ? stored.get(cacheKey('gzip', identity)) : undefined;
      if (stitched) return { body: stitched, sentAs: 'gzip' };
      // Kept as they are: right for this client only if it would have been sent them so.
      const plain = stored.get(cacheKey('identity', identity));
      return plain && sentAs(encoding, plain.length) === 'identity' ? { body: plain, sentAs: 'identity' } : undefined;
    };
    server.expose('storedAnswer', storedAnswer);

    server.decorate('toolkit', 'cachedJson', function (this: ResponseToolkit, identity: string) {
      const answer = storedAnswer(this.request.info.acceptEncoding, identity, takesGzip(this.request));
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
 * passed validation already. A request answered here can be replayed below
 * hapi when it comes again (see `answerReplayPlugin`).
 */
export function cachedAnswerFirst<Form>(answers: CachedAnswers<Form>): RouteExtObject {
  return {
    method(request, h) {
      const form = answers.formOf(request);
      const identity = form === undefined ? undefined : answers.identityOf(form);
      const cached = identity === undefined ? undefined : h.cachedJson(identity);
      if (!cached) return h.continue;
      answers.onAnswer?.(form!);
      const headersOf = answers.headersOf;
      markReplayable(request, {
        identity: () => answers.identityOf(form!),
        answered: () => answers.onAnswer?.(form!),
        ...(headersOf ? { headers: () => headersOf(form!) } : {}),
      });
      for (const [name, value] of Object.entries(headersOf?.(form!) ?? {})) cached.header(name, value);
      return cached.takeover();
    },
  };
}
