import { describe, expect, test } from 'vitest';
import type { RawPost, RawQuestion } from '../api/schemas.js';
import { normalizeQuestion } from './events.js';

const post: RawPost = { id: 7, title: 'A continuous question' };
const forecast = (centers: number[], lower: number[], upper: number[]) => ({
  recency_weighted: { latest: { centers, interval_lower_bounds: lower, interval_upper_bounds: upper, forecast_values: [] } },
});

describe('continuous questions: the community median and quartiles in the question’s terms, never outcome prices', () => {
  test('a log-scaled numeric question maps the internal axis back through its zero point', () => {
    const question: RawQuestion = {
      id: 70,
      type: 'numeric',
      scaling: { range_min: 1, range_max: 1000, zero_point: 0 },
      aggregations: forecast([0.5], [0], [1]),
    };
    const market = normalizeQuestion(post, question, '7', post.title);
    expect(market.outcomes).toEqual([]);
    // With the zero point at 0 the scale is geometric: the middle of 1..1000 is about 31.6.
    expect(market.sourceMetadata?.communityPrediction).toEqual({ median: 31.622777, lowerQuartile: 1, upperQuartile: 1000 });
  });

  test('a date question gives ISO dates', () => {
    const start = Date.UTC(2030, 0, 1) / 1000;
    const end = Date.UTC(2040, 0, 1) / 1000;
    const question: RawQuestion = {
      id: 71,
      type: 'date',
      scaling: { range_min: start, range_max: end, zero_point: null },
      aggregations: forecast([0.5], [0.25], [0.75]),
    };
    const market = normalizeQuestion(post, question, '7', post.title);
    expect(market.sourceMetadata?.communityPrediction).toEqual({
      median: '2035-01-01T00:00:00.000Z',
      lowerQuartile: '2032-07-02T00:00:00.000Z',
      upperQuartile: '2037-07-02T00:00:00.000Z',
    });
  });

  test('without a visible prediction there is no summary and no outcome', () => {
    const question: RawQuestion = { id: 72, type: 'discrete', scaling: { range_min: 0, range_max: 10 }, aggregations: { recency_weighted: { latest: null } } };
    const market = normalizeQuestion(post, question, '7', post.title);
    expect(market.outcomes).toEqual([]);
    expect(market.sourceMetadata).toMatchObject({ communityPredictionAvailable: false });
    expect(market.sourceMetadata?.communityPrediction).toBeUndefined();
  });
});
