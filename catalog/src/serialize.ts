import type { CatalogEntry } from './document.js';
import type { JsonOut, JsonWriter } from './json-out.js';

/**
 * Answers' JSON as writers into one buffer (see json-out.ts): where a store
 * keeps an event's views as bytes, they are read or spliced into place,
 * neither parsed nor serialised again; otherwise the value is serialised.
 */

/** Any value, serialised once. */
export function valueJson(value: unknown): JsonWriter {
  return (out) => out.text(JSON.stringify(value));
}

/** The Router views of entries, as a JSON array. */
export function routerEventsJson(entries: readonly CatalogEntry[]): JsonWriter {
  return arrayJson(entries, writeRouter);
}

/** One entry's Router view. */
export function routerEventJson(entry: CatalogEntry): JsonWriter {
  return (out) => writeRouter(entry, out);
}

/** The venue's own events, exactly as their adapter returned them, as a JSON array. */
export function sourceEventsJson(entries: readonly CatalogEntry[]): JsonWriter {
  return arrayJson(entries, writeSource);
}

/** One entry's venue event. */
export function sourceEventJson(entry: CatalogEntry): JsonWriter {
  return (out) => writeSource(entry, out);
}

/** A market as found in the catalog: written from its stored bytes where the store keeps them, else serialised. */
export interface MarketJson {
  market: unknown;
  json?: Buffer;
  writeJson?(out: JsonOut): void;
}

/** Markets as found in the catalog, as a JSON array. */
export function marketsJson(hits: readonly MarketJson[]): JsonWriter {
  return arrayJson(hits, writeMarket);
}

/** One market as found in the catalog. */
export function marketJson(hit: MarketJson): JsonWriter {
  return (out) => writeMarket(hit, out);
}

function arrayJson<T>(items: readonly T[], write: (item: T, out: JsonOut) => void): JsonWriter {
  return (out) => {
    out.text('[');
    items.forEach((item, index) => {
      if (index > 0) out.text(',');
      write(item, out);
    });
    out.text(']');
  };
}

function writeRouter(entry: CatalogEntry, out: JsonOut): void {
  if (entry.writeRouterJson) entry.writeRouterJson(out);
  else out.bytes(entry.routerJson ?? Buffer.from(JSON.stringify(entry.router)));
}

function writeSource(entry: CatalogEntry, out: JsonOut): void {
  if (entry.writeSourceJson) entry.writeSourceJson(out);
  else out.bytes(entry.sourceJson ?? Buffer.from(JSON.stringify(entry.source)));
}

function writeMarket(hit: MarketJson, out: JsonOut): void {
  if (hit.writeJson) hit.writeJson(out);
  else out.bytes(hit.json ?? Buffer.from(JSON.stringify(hit.market)));
}
