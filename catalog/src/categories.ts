import { normalizedCategories } from '@predgate/core';
import type { CategoryWords, NormalizedCategory } from '@predgate/core';

/**
 * One category name means the same thing on every venue. Venues file events
 * under their own vocabularies (Kalshi's "Climate and Weather", Polymarket's
 * "Pop Culture" tag, the mock's "Economy"); each adapter declares its words
 * (`profile.categoryWords`), and the catalog learns them from the adapters it
 * loads. The Router filters on the normalised names and keeps the venue's own
 * in `sourceMetadata.venueCategory`.
 */
export { normalizedCategories };
export type { NormalizedCategory };

/** The normalised names themselves, in any case, on any venue. */
const ownNames = new Map<string, NormalizedCategory>(normalizedCategories.map((category) => [category.toLowerCase(), category]));

/** Each venue's declared words, and all of them merged: a client's filter word is read on every venue's terms. */
const declared = new Map<string, CategoryWords>();
let lookup = new Map<string, NormalizedCategory>(ownNames);

/** Learns a venue's category words (from its adapter's profile); declaring again replaces the venue's earlier words. */
export function declareCategoryWords(venue: string, words: CategoryWords | undefined): void {
  declared.set(venue, words ?? {});
  lookup = new Map(ownNames);
  for (const vocabulary of declared.values())
    for (const [category, names] of Object.entries(vocabulary) as Array<[NormalizedCategory, string[]]>)
      for (const name of names) if (!lookup.has(name.trim().toLowerCase())) lookup.set(name.trim().toLowerCase(), category);
}

/** The normalised category of a venue's category; `Other` when it is unknown or absent. */
export function normalizeCategory(venueCategory: string | undefined): NormalizedCategory {
  if (!venueCategory) return 'Other';
  return lookup.get(venueCategory.trim().toLowerCase()) ?? 'Other';
}
