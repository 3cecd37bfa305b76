import { compact, roundTo } from '../kit/values.js';
import type { Market, Outcome } from '../model/index.js';

const yesWords = new Set(['yes', 'up', 'over']);
const noWords = new Set(['no', 'down', 'under']);

/**
 * Which of a two-outcome market's outcomes is "yes". The first outcome is yes
 * unless the labels say otherwise: the second is labelled like a yes (`Yes`,
 * `Up`, `Over`), or the first like a no (`No`, `Down`, `Under`, `Not ...`).
 * A first outcome that reads as a yes, or a second that reads as a no, keeps
 * the order as it is.
 */
export function binaryPair(outcomes: readonly Outcome[]): { yes: Outcome; no: Outcome } | undefined {
  if (outcomes.length !== 2) return undefined;
  const [first, second] = outcomes as [Outcome, Outcome];
  const a = first.label.trim().toLowerCase();
  const b = second.label.trim().toLowerCase();
  const orderConfirmed = yesWords.has(a) || noWords.has(b);
  const orderReversed = yesWords.has(b) || noWords.has(a) || (a.startsWith('not ') && !b.startsWith('not '));
  return !orderConfirmed && orderReversed ? { yes: second, no: first } : { yes: first, no: second };
}

/**
 * The market with its convenience references: `yes` and `up` point at the yes
 * outcome, `no` and `down` at the other, and only when there are exactly two
 * outcomes. Labels are left as the venue wrote them.
 */
export function withBinaryRefs<M extends Market>(market: M): M {
  const rest = withoutBinaryRefs(market);
  const pair = binaryPair(market.outcomes);
  if (!pair) return rest as M;
  return { ...rest, yes: pair.yes, no: pair.no, up: pair.yes, down: pair.no } as M;
}

/**
 * A two-outcome market priced by its settlement: the first outcome paid
 * `paid` (1 when it won, 0 when it lost, a fraction when the market was
 * split or voided), the second the rest; the market is `resolved`.
 * `sourceMetadata` gets `detail` (the venue's own settlement fields) and,
 * when one outcome took all, `winner` (its label) and `winningOutcomeId`.
 */
export function settledBinaryMarket<M extends Market>(market: M, paid: number, detail: Record<string, unknown> = {}): M {
  const prices = [paid, roundTo(1 - paid, 12)];
  const winner = paid === 1 ? market.outcomes[0] : paid === 0 ? market.outcomes[1] : undefined;
  return withBinaryRefs({
    ...market,
    status: 'resolved',
    outcomes: market.outcomes.map((outcome, side) => ({ ...outcome, price: prices[side]! })),
    sourceMetadata: compact({ ...market.sourceMetadata, ...detail, winner: winner?.label, winningOutcomeId: winner?.outcomeId }),
  });
}

/** The market without convenience references, as the Router serves it. */
export function withoutBinaryRefs<M extends Market>(market: M): Omit<M, 'yes' | 'no' | 'up' | 'down'> {
  const { yes: _yes, no: _no, up: _up, down: _down, ...rest } = market;
  return rest;
}
