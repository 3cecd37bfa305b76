import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { collectOffsetPages } from './paging.js';
import { checkPayload, venueValue } from './payload.js';

/** A venue listing `total` items by offset, of which the ones named in `unreadable` have a price that is no number. */
function venue(total: number, unreadable: number[]) {
  const asked: number[] = [];
  const schema = venueValue.items(Joi.object({ id: Joi.number().required(), price: Joi.number().required() }), { id: 'id' });
  const fetchPage = async (offset: number, size: number) => {
    asked.push(offset);
    const page = Array.from({ length: Math.max(0, Math.min(size, total - offset)) }, (_, index) => offset + index).map((id) => ({
      id,
      price: unreadable.includes(id) ? 'n/a' : 0.5,
    }));
    return checkPayload<Array<{ id: number }>>(schema, page, { venue: 'test', endpoint: 'GET /items' }).map((item) => item.id);
  };
  return { asked, fetchPage };
}

describe('offset paging with an unreadable item', () => {
  test('the left-out item still counts toward its page: the listing neither ends early nor shifts', async () => {
    const { asked, fetchPage } = venue(25, [3]);
    const ids = await collectOffsetPages(fetchPage, { pageSize: 10, maxPages: 5 });
    expect(ids).toEqual(Array.from({ length: 25 }, (_, id) => id).filter((id) => id !== 3));
    expect(asked).toEqual([0, 10, 20]);
  });
});
