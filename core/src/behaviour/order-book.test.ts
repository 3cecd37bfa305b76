import { describe, expect, test } from 'vitest';
import { bookToDepth, maxBookDepth, normalizeOrderBook } from './order-book.js';

test('sorts both sides best first, drops empty levels and derives datetime', () => {
  const book = normalizeOrderBook({
    bids: [
      { price: 0.3, size: 1 },
      { price: 0.32, size: 2 },
      { price: 0.31, size: 0 },
    ],
    asks: [
      { price: 0.4, size: 1 },
      { price: 0.35, size: 3 },
      { price: Number.NaN, size: 1 },
    ],
    timestamp: 1_785_734_468_581,
    isNegRisk: true,
  });
  expect(book).toEqual({
    bids: [
      { price: 0.32, size: 2 },
      { price: 0.3, size: 1 },
    ],
    asks: [
      { price: 0.35, size: 3 },
      { price: 0.4, size: 1 },
    ],
    timestamp: 1_785_734_468_581,
    datetime: '2026-08-03T05:21:08.581Z',
    isNegRisk: true,
  });
});

test('cuts a book to its best levels a side, and leaves it whole without a depth', () => {
  const book = normalizeOrderBook({
    bids: [
      { price: 0.3, size: 1 },
      { price: 0.32, size: 2 },
      { price: 0.29, size: 4 },
    ],
    asks: [
      { price: 0.4, size: 1 },
      { price: 0.35, size: 3 },
    ],
    timestamp: 0,
  });
  expect(bookToDepth(book, 2)).toEqual({
    ...book,
    bids: [
      { price: 0.32, size: 2 },
      { price: 0.3, size: 1 },
    ],
    asks: [
      { price: 0.35, size: 3 },
      { price: 0.4, size: 1 },
    ],
  });
  expect(bookToDepth(book, 1).bids).toEqual([{ price: 0.32, size: 2 }]);
  expect(bookToDepth(book, undefined)).toBe(book);
});

describe('a venue book that repeats levels or runs deep', () => {
  test('levels at one price are merged, sizes and order counts summed', () => {
    const book = normalizeOrderBook({
      bids: [
        { price: 0.4, size: 10, orderCount: 1 },
        { price: 0.41, size: 5 },
        { price: 0.4, size: 2.5, orderCount: 2 },
      ],
      asks: [{ price: 0.42, size: 1 }],
      timestamp: 1,
    });
    expect(book.bids).toEqual([
      { price: 0.41, size: 5 },
      { price: 0.4, size: 12.5, orderCount: 3 },
    ]);
  });

  test('each side is cut to maxBookDepth levels, best first', () => {
    const levels = Array.from({ length: maxBookDepth + 500 }, (_, index) => ({ price: (index + 1) / 10_000, size: 1 }));
    const book = normalizeOrderBook({ bids: levels, asks: levels, timestamp: 1 });
    expect(book.bids).toHaveLength(maxBookDepth);
    expect(book.bids[0]!.price).toBe(0.15);
    expect(book.asks[0]!.price).toBe(0.0001);
  });
});
