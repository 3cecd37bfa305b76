import type { CatalogEntry } from './document.js';
import { StoredEntry } from './embedded/stored-entry.js';

/**
 * The Router views of entries as a JSON array. The embedded store keeps each
 * view as JSON already, so a page is joined rather than serialised again: the
 * difference between a Router page and a copy of the same bytes is then small.
 */
export function routerEventsJson(entries: readonly CatalogEntry[]): string {
  return `[${entries.map((entry) => (entry instanceof StoredEntry ? entry.routerJson : JSON.stringify(entry.router))).join(',')}]`;
}
