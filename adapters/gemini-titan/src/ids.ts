/** Outcome ids: the contract's symbol and the side an order names (`outcome: yes|no`). */
export const outcomeIdOf = (symbol: string, side: 'yes' | 'no') => `${symbol}:${side}`;

export function sideOfOutcomeId(outcomeId: string): { symbol: string; side: 'yes' | 'no' } | undefined {
  const match = /^(.+):(yes|no)$/.exec(outcomeId);
  return match ? { symbol: match[1]!, side: match[2] as 'yes' | 'no' } : undefined;
}
