/** An outcome id is `<market>:<side>`, the side being what a bet names (`yes`, `no` or a rung key); market ids hold no colon. */
export function outcomeIdOf(marketId: string, side: string): string {
  return `${marketId}:${side}`;
}

export function splitOutcomeId(outcomeId: string): { marketId: string; side: string } | undefined {
  const at = outcomeId.lastIndexOf(':');
  return at > 0 && at < outcomeId.length - 1 ? { marketId: outcomeId.slice(0, at), side: outcomeId.slice(at + 1) } : undefined;
}
