import { describe, expect, test } from 'vitest';
import type { Market, Outcome } from '../model/index.js';
import { binaryPair, settledBinaryMarket, withBinaryRefs, withoutBinaryRefs } from './binary-outcomes.js';

const outcome = (label: string, index: number): Outcome => ({ outcomeId: `o${index}`, label, price: 0.5 });
const market = (...labels: string[]): Market => ({
  marketId: 'm',
  title: 'Question?',
  description: '',
  outcomes: labels.map(outcome),
  volume24h: 0,
  liquidity: 0,
  url: '',
});

describe('binaryPair decides which outcome is yes', () => {
  test.each([
    [['Yes', 'No'], 'Yes'],
    [['No', 'Yes'], 'Yes'],
    [['Up', 'Down'], 'Up'],
    [['Down', 'Up'], 'Up'],
    [['Over', 'Under'], 'Over'],
    [['Under', 'Over'], 'Over'],
    [['yes', 'no'], 'yes'],
    [['Mets', 'No'], 'Mets'],
    [['No', 'Mets'], 'Mets'],
    [['Not Newsom', 'Newsom'], 'Newsom'],
    [['Newsom', 'Not Newsom'], 'Newsom'],
    [['Nationals', 'Mets'], 'Nationals'],
  ])('%j: yes is %s', (labels, yes) => {
    const pair = binaryPair(labels.map(outcome));
    expect(pair?.yes.label).toBe(yes);
    expect(pair?.no.label).toBe(labels.find((label) => label !== yes));
  });

  test('only two-outcome markets have a pair', () => {
    expect(binaryPair([outcome('A', 0)])).toBeUndefined();
    expect(binaryPair(['A', 'B', 'C'].map(outcome))).toBeUndefined();
  });
});

describe('withBinaryRefs', () => {
  test('sets yes/up and no/down to members of outcomes, leaving labels alone', () => {
    const result = withBinaryRefs(market('Down', 'Up'));
    expect(result.yes).toBe(result.outcomes[1]);
    expect(result.up).toBe(result.outcomes[1]);
    expect(result.no).toBe(result.outcomes[0]);
    expect(result.down).toBe(result.outcomes[0]);
    expect(result.outcomes.map((item) => item.label)).toEqual(['Down', 'Up']);
  });

  test('removes references a multi-outcome market must not carry', () => {
    const stale = { ...market('A', 'B', 'C'), yes: outcome('A', 0) };
    const result = withBinaryRefs(stale);
    expect(result).not.toHaveProperty('yes');
    expect(result).not.toHaveProperty('no');
  });

  test('withoutBinaryRefs strips all four references', () => {
    const result = withoutBinaryRefs(withBinaryRefs(market('Yes', 'No')));
    expect(Object.keys(result)).not.toEqual(expect.arrayContaining(['yes']));
    expect(result).not.toHaveProperty('down');
    expect(result.outcomes).toHaveLength(2);
  });
});

describe('settledBinaryMarket', () => {
  test('prices the first outcome at what it paid and the second at the rest, naming the winner when one took all', () => {
    const lost = settledBinaryMarket(market('Brewers', 'Cubs'), 0, { settlement: 0 });
    expect(lost).toMatchObject({ status: 'resolved', sourceMetadata: { settlement: 0, winner: 'Cubs', winningOutcomeId: 'o1' } });
    expect(lost.outcomes.map((item) => item.price)).toEqual([0, 1]);
    expect(lost.yes).toBe(lost.outcomes[0]);
    expect(settledBinaryMarket(market('Yes', 'No'), 1).sourceMetadata).toEqual({ winner: 'Yes', winningOutcomeId: 'o0' });
  });

  test('a split names no winner and keeps the prices free of float noise', () => {
    const split = settledBinaryMarket(market('Yes', 'No'), 0.7);
    expect(split.outcomes.map((item) => item.price)).toEqual([0.7, 0.3]);
    expect(split.sourceMetadata).toEqual({});
  });
});
