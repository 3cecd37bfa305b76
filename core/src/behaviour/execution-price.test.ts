import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import { getExecutionPrice, getExecutionPriceDetailed } from './execution-price.js';

const book = {
  bids: [
    { price: 0.45, size: 10 },
    { price: 0.47, size: 5 },
    { price: 0.4, size: 100 },
  ],
  asks: [
    { price: 0.55, size: 20 },
    { price: 0.5, size: 10 },
    { price: 0.6, size: 0 },
  ],
};

describe('execution price', () => {
  test('a buy walks the asks from the lowest price', () => {
    expect(getExecutionPriceDetailed(book, 'buy', 10)).toEqual({ price: 0.5, filledAmount: 10, fullyFilled: true });
    const twenty = getExecutionPriceDetailed(book, 'buy', 20);
    expect(twenty.price).toBeCloseTo((10 * 0.5 + 10 * 0.55) / 20, 12);
  });

  test('a sell walks the bids from the highest price', () => {
    const result = getExecutionPriceDetailed(book, 'sell', 8);
    expect(result.price).toBeCloseTo((5 * 0.47 + 3 * 0.45) / 8, 12);
    expect(result.fullyFilled).toBe(true);
  });

  test('a book too thin for the amount fills what it can', () => {
    expect(getExecutionPriceDetailed(book, 'buy', 50)).toMatchObject({ filledAmount: 30, fullyFilled: false });
    expect(getExecutionPrice(book, 'buy', 50)).toBe(0);
    expect(getExecutionPrice(book, 'buy', 10)).toBe(0.5);
  });

  test('an empty side fills nothing', () => {
    expect(getExecutionPriceDetailed({ bids: [], asks: [] }, 'sell', 1)).toEqual({ price: 0, filledAmount: 0, fullyFilled: false });
  });

  test('a non-positive amount is a validation error', () => {
    expect(() => getExecutionPriceDetailed(book, 'buy', 0)).toThrow(PredgateError);
  });

  const level = fc.record({ price: fc.integer({ min: 1, max: 99 }).map((cents) => cents / 100), size: fc.integer({ min: 1, max: 1000 }) });
  test('the average lies between the best and worst level used, and never overfills', () => {
    fc.assert(
      fc.property(fc.array(level, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 5000 }), (asks, amount) => {
        const result = getExecutionPriceDetailed({ bids: [], asks }, 'buy', amount);
        const depth = asks.reduce((sum, item) => sum + item.size, 0);
        const prices = asks.map((item) => item.price);
        expect(result.filledAmount).toBe(Math.min(amount, depth));
        expect(result.fullyFilled).toBe(depth >= amount);
        expect(result.price).toBeGreaterThanOrEqual(Math.min(...prices) - 1e-12);
        expect(result.price).toBeLessThanOrEqual(Math.max(...prices) + 1e-12);
      }),
    );
  });
});
