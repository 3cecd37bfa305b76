import { Readable } from 'node:stream';
import type { CatalogEntry } from './document.js';

/**
 * A JSON value as the byte chunks it is made of, with its length, so it can be
 * sent without being copied into one buffer. The embedded store keeps every
 * event's JSON as bytes already: a page of events is those bytes, neither
 * serialised again nor copied.
 */
export interface JsonChunks {
  chunks: Buffer[];
  length: number;
  stream(): Readable;
}

const comma = Buffer.from(',');

/** `before` + the value + `after`. */
export function wrapJson(json: JsonChunks, before: string, after: string): JsonChunks {
  return jsonChunks([Buffer.from(before), ...json.chunks, Buffer.from(after)]);
}

/** Any value, serialised once. */
export function valueJson(value: unknown): JsonChunks {
  return jsonChunks([Buffer.from(JSON.stringify(value))]);
}

/** The Router views of entries, as a JSON array. */
export function routerEventsJson(entries: readonly CatalogEntry[]): JsonChunks {
  return arrayJson(entries.map(routerJsonOf));
}

/** One entry's Router view. */
export function routerEventJson(entry: CatalogEntry): JsonChunks {
  return jsonChunks([routerJsonOf(entry)]);
}

/** The venue's own events, exactly as their adapter returned them, as a JSON array. */
export function sourceEventsJson(entries: readonly CatalogEntry[]): JsonChunks {
  return arrayJson(entries.map(sourceJsonOf));
}

/** One entry's venue event. */
export function sourceEventJson(entry: CatalogEntry): JsonChunks {
  return jsonChunks([sourceJsonOf(entry)]);
}

/** Markets as found in the catalog: their stored bytes where the store keeps them, else serialised. */
export function marketsJson(hits: ReadonlyArray<{ market: unknown; json?: Buffer }>): JsonChunks {
  return arrayJson(hits.map((hit) => hit.json ?? Buffer.from(JSON.stringify(hit.market))));
}

/** One market as found in the catalog. */
export function marketJson(hit: { market: unknown; json?: Buffer }): JsonChunks {
  return jsonChunks([hit.json ?? Buffer.from(JSON.stringify(hit.market))]);
}

function arrayJson(items: Buffer[]): JsonChunks {
  const chunks: Buffer[] = [Buffer.from('[')];
  items.forEach((item, index) => {
    if (index > 0) chunks.push(comma);
    chunks.push(item);
  });
  chunks.push(Buffer.from(']'));
  return jsonChunks(chunks);
}

function jsonChunks(chunks: Buffer[]): JsonChunks {
  return {
    chunks,
    length: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    stream: () => Readable.from(chunks, { objectMode: false }),
  };
}

function routerJsonOf(entry: CatalogEntry): Buffer {
  return entry.routerJson ?? Buffer.from(JSON.stringify(entry.router));
}

function sourceJsonOf(entry: CatalogEntry): Buffer {
  return entry.sourceJson ?? Buffer.from(JSON.stringify(entry.source));
}
