export type Side = 'long' | 'short';

/** Outcome ids are the market slug and the side: `<slug>:long`, `<slug>:short`. */
export const outcomeIdOf = (slug: string, side: Side) => `${slug}:${side}`;

export function partsOfOutcomeId(outcomeId: string): { slug: string; side: Side } | undefined {
  const match = /^(.+):(long|short)$/.exec(outcomeId);
  return match ? { slug: match[1]!, side: match[2] as Side } : undefined;
}
