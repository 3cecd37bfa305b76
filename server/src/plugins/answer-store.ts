import { LRUCache } from 'lru-cache';

export interface AnswerStoreOptions {
  /** Bytes of answers asked for again that are kept. */
  maxBytes: number;
  /** Bytes of answers sent once that are kept, waiting to be asked again. */
  onceBytes: number;
  /** How long an answer is kept at most. */
  ttlMs: number;
}

/**
 * Answers kept as they were sent, in two parts: every new answer goes into a
 * small part, and moves into the large one only when it is asked for again.
 *
 * One LRU of every answer kept what clients that ask something different
 * each time never ask again: under such traffic its whole size turned over,
 * each answer a Buffer outside the JavaScript heap that lived long enough to
 * be promoted, and only a full mark-compact (which walks the whole catalog
 * index) freed them. V8 starts one each time external memory grows by a set
 * amount, so a 64 MiB cache turning over meant a full collection every few
 * hundred pages: the p99s of varied requests. Kept in a small part first,
 * an answer asked once dies young; one asked again right after (the same
 * request repeated, a page several clients poll) is found there and kept.
 */
export class AnswerStore {
  private readonly once: LRUCache<string, Buffer>;
  private readonly again: LRUCache<string, Buffer>;
  private readonly onceBytes: number;

  constructor(options: AnswerStoreOptions) {
    this.onceBytes = options.onceBytes;
    const sizeCalculation = (body: Buffer) => Math.max(1, body.length);
    this.once = new LRUCache({ maxSize: options.onceBytes, sizeCalculation, ttl: options.ttlMs });
    this.again = new LRUCache({ maxSize: options.maxBytes, sizeCalculation, ttl: options.ttlMs });
  }

  get(key: string): Buffer | undefined {
    const kept = this.again.get(key);
    if (kept) return kept;
    const seen = this.once.get(key);
    if (!seen) return undefined;
    // Kept for the rest of its time to live, not afresh: an answer is never older than the store's limit.
    const ttl = this.once.getRemainingTTL(key);
    this.once.delete(key);
    this.again.set(key, seen, Number.isFinite(ttl) ? { ttl: Math.max(1, Math.ceil(ttl)) } : {});
    return seen;
  }

  set(key: string, body: Buffer): void {
    // An answer larger than the whole first part could never wait there to be asked again.
    if (body.length > this.onceBytes) this.again.set(key, body);
    else this.once.set(key, body);
  }
}
