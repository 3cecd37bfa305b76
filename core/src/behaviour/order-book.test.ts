import { expect, test } from 'vitest';
import { bookToDepth, normalizeOrderBook } from './order-book.js';

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
