import { Readable } from 'node:stream';
import type { CatalogEntry } from './document.js';
import { StoredEntry } from './embedded/stored-entry.js';

const comma = Buffer.from(',');

/** A JSON body as the byte chunks it is made of, with its length: sent without being copied into one buffer. */
export interface JsonChunks {
  chunks: Buffer[];
  length: number;
  stream(): Readable;
}

/**
 * The Router views of entries as one JSON value, in UTF-8: `before`, the views
 * as an array, then `after`. The embedded store keeps each view as JSON bytes
 * already, so a page is sent as those bytes, neither serialised nor copied.
 */
export function routerEventsJson(entries: readonly CatalogEntry[], before = '', after = ''): JsonChunks {
  const chunks: Buffer[] = [Buffer.from(`${before}[`)];
  entries.forEach((entry, index) => {
    if (index > 0) chunks.push(comma);
    chunks.push(routerJsonOf(entry));
  });
  chunks.push(Buffer.from(`]${after}`));
  return jsonChunks(chunks);
}

/** One entry's Router view as `before` + JSON + `after`. */
export function routerEventJson(entry: CatalogEntry, before = '', after = ''): JsonChunks {
  return jsonChunks([Buffer.from(before), routerJsonOf(entry), Buffer.from(after)]);
}

function jsonChunks(chunks: Buffer[]): JsonChunks {
  return {
    chunks,
    length: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    stream: () => Readable.from(chunks, { objectMode: false }),
  };
}

function routerJsonOf(entry: CatalogEntry): Buffer {
  return entry instanceof StoredEntry ? entry.routerJson : Buffer.from(JSON.stringify(entry.router));
}
