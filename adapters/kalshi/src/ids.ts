/**
 * Identifiers. Kalshi's tickers are its ids and slugs; they are upper-case and
 * the API is case-sensitive, so every ticker a caller passes is upper-cased.
 * Outcome ids are a gateway convention: `TICKER` is a market's YES outcome and
 * `TICKER-NO` its NO outcome; the suffix is stripped before any venue call.
 */

export type ContractSide = 'yes' | 'no';

const noSuffix = '-NO';

export function ticker(value: string): string {
  return value.trim().toUpperCase();
}

export function outcomeIdOf(marketTicker: string, side: ContractSide): string {
  return side === 'no' ? `${marketTicker}${noSuffix}` : marketTicker;
}

/** The market ticker of an outcome id, and the side when the id names the NO outcome explicitly. */
export function parseOutcomeId(outcomeId: string): { ticker: string; side?: 'no' } {
  const upper = ticker(outcomeId);
  return upper.endsWith(noSuffix) && upper.length > noSuffix.length ? { ticker: upper.slice(0, -noSuffix.length), side: 'no' } : { ticker: upper };
}

/** The side an outcome id stands for, YES unless it carries the `-NO` suffix. */
export function outcomeOf(outcomeId: string): { ticker: string; side: ContractSide } {
  const parsed = parseOutcomeId(outcomeId);
  return { ticker: parsed.ticker, side: parsed.side ?? 'yes' };
}

export function isContractSide(value: unknown): value is ContractSide {
  return value === 'yes' || value === 'no';
}
