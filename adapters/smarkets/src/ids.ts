/** Outcome ids carry their market, which the book endpoint needs: `<market>:<contract>`. */
export const outcomeIdOf = (marketId: string, contractId: string) => `${marketId}:${contractId}`;

export function partsOfOutcomeId(outcomeId: string): { marketId: string; contractId: string } | undefined {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(outcomeId);
  return match ? { marketId: match[1]!, contractId: match[2]! } : undefined;
}

/** Smarkets' numeric ids (events, markets, contracts, orders). */
export const isVenueId = (id: string) => /^\d{1,20}$/.test(id);
