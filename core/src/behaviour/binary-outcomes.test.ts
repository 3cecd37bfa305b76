import { describe, expect, test } from 'vitest';
import type { Market, Outcome } from '../model/index.js';
import { binaryPair, withBinaryRefs, withoutBinaryRefs } from './binary-outcomes.js';

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
