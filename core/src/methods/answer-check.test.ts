import { describe, expect, test } from 'vitest';
import type { PredgateError } from '../errors.js';
import { withDriftSink } from '../kit/drift.js';
import { conformAnswer } from './answer-check.js';
import { coreMethods } from './method-list.js';

const market = (marketId: string, price: number) => ({
  marketId,
  title: marketId,
  description: '',
  volume24h: 0,
  liquidity: 0,
  url: '',
  outcomes: [{ outcomeId: `${marketId}-yes`, label: 'Yes', price }],
});

function conformed(method: keyof typeof coreMethods, value: unknown): { value: unknown; reports: PredgateError[] } {
  const reports: PredgateError[] = [];
  const answer = withDriftSink(
    (report) => reports.push(report),
    () => conformAnswer(method, coreMethods[method], value, 'venue'),
  );
  return { value: answer, reports };
}

describe('answers held to the model', () => {
  test('an answer inside the model is served as it is', () => {
    const answer = [market('a', 0.4)];
    expect(conformed('fetchMarkets', answer)).toEqual({ value: answer, reports: [] });
  });

  test('in a list, an item outside the model is left out and reported with its id and field', () => {
    const { value, reports } = conformed('fetchMarkets', [market('a', 0.4), market('b', 1.6), market('c', 0.2)]);
    expect((value as Array<{ marketId: string }>).map((item) => item.marketId)).toEqual(['a', 'c']);
    expect(reports.map((report) => report.detail)).toEqual([
      expect.objectContaining({ endpoint: 'fetchMarkets answer', field: '1.outcomes.0.price', item: 'b', drift: true }),
    ]);
  });

  test("in a page, the page's data is filtered and its cursor kept", () => {
    const { value, reports } = conformed('fetchMarketsPaginated', { data: [market('a', -0.1), market('b', 0.5)], nextCursor: 'n' });
    expect(value).toEqual({ data: [market('b', 0.5)], nextCursor: 'n' });
    expect(reports).toHaveLength(1);
  });

  test('with a sink handed over, an item left out is reported there alone, not to the call around it', () => {
    const own: PredgateError[] = [];
    const around: PredgateError[] = [];
    const value = withDriftSink(
      (report) => around.push(report),
      () => conformAnswer('fetchMarkets', coreMethods.fetchMarkets, [market('a', 1.5), market('b', 0.5)], 'venue', (report) => own.push(report)),
    );
    expect(value).toEqual([market('b', 0.5)]);
    expect(own.map((report) => report.detail)).toEqual([expect.objectContaining({ item: 'a', field: '0.outcomes.0.price', drift: true })]);
    expect(around).toEqual([]);
  });

  test('a single answer outside the model is refused naming the field, never sent', () => {
    expect(() => conformed('fetchMarket', market('a', 2))).toThrow(/outcomes\.0\.price/);
  });
});
