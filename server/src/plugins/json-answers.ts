import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
import Accept from '@hapi/accept';
import { LRUCache } from 'lru-cache';
import { AnswerStore } from './answer-store.js';

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
export const brotliQuality = 1;
/** gzip and deflate for clients that do not take brotli: the fastest level, for the same reason. */
export const zlibLevel = 1;
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

/** The codings hapi offers, in its order of preference: brotli (added by the gateway) first, then its own. */
const offeredCodings = ['br', 'identity', 'gzip', 'deflate'];

/** What a request's `accept-encoding` asks for. */
export interface Negotiated {
  /** The coding hapi negotiates for it (`identity`: none). */
  encoding: string;
  /** Whether it takes gzip at any weight above zero, though another coding was negotiated. */
  takesGzip: boolean;
}

/** Bytes kept for an answer, and the content coding they are in (`identity`: none). */
export interface StoredAnswer {
  body: Buffer;
  sentAs: string;
}

function cacheKey(sentAs: string, identity: string): string {
  return `${sentAs}\n${identity}`;
}

/**
 * How JSON of `length` bytes goes to a client whose negotiated encoding is
 * `encoding`: compressed once here, sent as it is, or (undefined) left to
 * hapi's per-request encoder, whose output is not kept.
 */
function sentAs(encoding: string, length: number): string | undefined {
  if (encoding === 'identity' || length < compressMinBytes) return 'identity';
  return compressors[encoding] ? encoding : undefined;
}

/** Whether every JSON answer to a client asking `negotiated` can be made here, without hapi's per-request encoder. */
export function answeredHere(negotiated: Negotiated): boolean {
  return negotiated.encoding === 'identity' || compressors[negotiated.encoding] !== undefined;
}

/**
 * JSON answers as they are sent, whoever sends them (hapi's routes or the
 * lean path in front of them): compressed as the client asks when that pays,
 * and, when named by an identity (the catalog generation and the query that
 * made them), kept and reused for every client that asks the same instead
 * of being made again per request.
 */
export class JsonAnswers {
  private readonly stored: AnswerStore;
  /** Concurrent requests for the same page share one compression. */
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** A few distinct `accept-encoding` headers, read on every answer. */
  private readonly negotiations = new LRUCache<string, Negotiated>({ max: 256 });

  constructor(options: StoredJsonOptions) {
    this.stored = new AnswerStore({ maxBytes: options.cacheBytes, onceBytes: Math.min(options.cacheBytes, onceBytes), ttlMs: options.cacheSeconds * 1000 });
  }

  /** What `accept-encoding` asks, read as hapi reads it (a malformed header is identity). */
  negotiate(header: string | undefined): Negotiated {
    const sent = header ?? '';
    let negotiated = this.negotiations.get(sent);
    if (!negotiated) {
      negotiated = { encoding: sent === '' ? 'identity' : accepted(sent, offeredCodings, 'identity'), takesGzip: accepted(sent, ['gzip'], '') === 'gzip' };
      this.negotiations.set(sent, negotiated);
    }
    return negotiated;
  }

  /**
   * `json` as it goes to a client asking `negotiated` (as it is where only
   * hapi's per-request encoder can compress it: a client taking deflate alone).
   * `identity` names the bytes, to keep and reuse what is sent. `gzipped`,
   * where given, makes the same bytes' gzip without compressing them (a page
   * stitched from pieces compressed once): a client that takes gzip is then
   * sent that, whatever else it takes.
   */
  async answer(json: Buffer, negotiated: Negotiated, identity?: string, gzipped?: () => Buffer | undefined): Promise<StoredAnswer> {
    const coding = sentAs(negotiated.encoding, json.length);
    if (coding === undefined) return { body: json, sentAs: 'identity' };
    // An answer made for this request alone (a live one): compressed in one call, not through a stream encoder made for it, and not kept.
    if (identity === undefined) return { body: coding === 'identity' ? json : await compressors[coding]!(json), sentAs: coding };
    if (gzipped !== undefined && coding !== 'identity' && negotiated.takesGzip) {
      // Stitched where its pieces exist; an answer without pieces is compressed as any other.
      // Kept when made, never again when found: keeping it anew on each hit would restart its time to live, and a page
      // polled often enough would outlive the store's limit.
      const stitchedKey = cacheKey('gzip', identity);
      let stitched = this.stored.get(stitchedKey);
      if (!stitched) {
        stitched = gzipped();
        if (stitched) this.stored.set(stitchedKey, stitched);
      }
      if (stitched) return { body: stitched, sentAs: 'gzip' };
    }
    const key = cacheKey(coding, identity);
    let body = this.stored.get(key);
    if (!body) {
      const compress = compressors[coding];
      body = compress ? await this.compressOnce(key, compress, json) : json;
      this.stored.set(key, body);
    }
    return { body, sentAs: coding };
  }

  /** The answer kept under `identity` for a client asking `negotiated`, while the store keeps it. */
  cached(identity: string, negotiated: Negotiated): StoredAnswer | undefined {
    const { encoding } = negotiated;
    const compressed = compressors[encoding] ? this.stored.get(cacheKey(encoding, identity)) : undefined;
    if (compressed) return { body: compressed, sentAs: encoding };
    // A page stitched from gzip pieces is kept as gzip whatever else the client who asked for it took.
    const stitched = negotiated.takesGzip && encoding !== 'identity' ? this.stored.get(cacheKey('gzip', identity)) : undefined;
    if (stitched) return { body: stitched, sentAs: 'gzip' };
    // Kept as they are: right for this client only if it would have been sent them so.
    const plain = this.stored.get(cacheKey('identity', identity));
    return plain && sentAs(encoding, plain.length) === 'identity' ? { body: plain, sentAs: 'identity' } : undefined;
  }

  private compressOnce(key: string, compress: (input: Buffer) => Buffer | Promise<Buffer>, json: Buffer): Buffer | Promise<Buffer> {
    let pending = this.inFlight.get(key);
    if (pending) return pending;
    const compressed = compress(json);
    if (Buffer.isBuffer(compressed)) return compressed;
    pending = compressed.finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, pending);
    return pending;
  }
}

/** The coding of `offered` that `header` prefers (`''` when it takes none of them); `fallback` when it cannot be read. */
function accepted(header: string, offered: string[], fallback: string): string {
  try {
    return Accept.encoding(header, offered);
  } catch {
    return fallback;
  }
}

/**
 * The headers a 200 JSON answer goes out with, as hapi sends them: `vary`
 * wherever the coding depends on the request (compressed, or large enough
 * that it would be), and hapi's defaults for a GET it answered in full.
 */
export function answerHeaders(answer: StoredAnswer): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['content-type', 'application/json; charset=utf-8'],
    ['content-length', String(answer.body.length)],
  ];
  if (answer.sentAs !== 'identity') headers.push(['content-encoding', answer.sentAs]);
  if (answer.sentAs !== 'identity' || answer.body.length >= compressMinBytes) headers.push(['vary', 'accept-encoding']);
  headers.push(['cache-control', 'no-cache'], ['accept-ranges', 'bytes']);
  return headers;
}
