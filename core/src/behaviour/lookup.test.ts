import { describe, expect, test, vi } from 'vitest';
import Joi from 'joi';
import { PredgateError } from '../errors.js';
import { checkPayload, venueValue } from '../kit/payload.js';
import type { Event, Market } from '../model/index.js';
import { findEvent, findMarket } from './lookup.js';

const event = (id: string, slug: string): Event => ({ id, slug, title: id, description: '', markets: [], volume24h: 0, url: '' });
const market = (marketId: string, slug: string, outcomeIds: string[]): Market => ({
  marketId,
  slug,
  title: marketId,
  description: '',
  outcomes: outcomeIds.map((outcomeId) => ({ outcomeId, label: outcomeId, price: 0.5 })),
  volume24h: 0,
  liquidity: 0,
  url: '',
});

describe('findEvent', () => {
  test('finds by id among closed events too, unless status narrows it', async () => {
    const list = vi.fn(async () => [event('1', 'one'), event('2', 'two')]);
    await expect(findEvent(list, { eventId: '2' })).resolves.toMatchObject({ id: '2' });
    expect(list).toHaveBeenLastCalledWith({ eventId: '2', status: 'all' });
    await findEvent(list, { slug: 'one', status: 'active' });
    expect(list).toHaveBeenLastCalledWith({ slug: 'one', status: 'active' });
  });

  test('a query returns the first match', async () => {
    await expect(findEvent(async () => [event('9', 'nine')], { query: 'ni' })).resolves.toMatchObject({ id: '9' });
  });

  test('no match is EVENT_NOT_FOUND naming the key', async () => {
    const error = await findEvent(async () => [event('1', 'one')], { slug: 'missing' }, 'mock').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PredgateError);
    expect(error).toMatchObject({ code: 'EVENT_NOT_FOUND', message: 'Event not found: missing', exchange: 'mock', detail: { slug: 'missing' } });
  });
});

describe('findMarket', () => {
  const markets = [market('m1', 'first', ['a', 'b']), market('m2', 'second', ['c', 'd'])];
  test.each([
    [{ marketId: 'm2' }, 'm2'],
    [{ slug: 'first' }, 'm1'],
    [{ outcomeId: 'd' }, 'm2'],
  ])('finds %j', async (params, expected) => {
    await expect(findMarket(async () => markets, params)).resolves.toMatchObject({ marketId: expected });
  });

  test('no match is MARKET_NOT_FOUND', async () => {
    await expect(findMarket(async () => markets, { marketId: 'nope' })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND', status: 404 });
  });
});

describe('a lookup of an item the venue sent unreadable', () => {
  const page = venueValue.items(Joi.object({ ticker: Joi.string().required(), price: Joi.number().required() }), { id: 'ticker' });
  const source = { venue: 'test', endpoint: 'GET /markets' };
  const fetchMarkets = async () =>
    checkPayload<Array<{ ticker: string }>>(
      page,
      [
        { ticker: 'good', price: 0.4 },
        { ticker: 'bad', price: 'n/a' },
      ],
      source,
    ).map((raw) => market(raw.ticker, raw.ticker, [`${raw.ticker}-yes`, `${raw.ticker}-no`]));

  test('answers the drift error naming the field, not MARKET_NOT_FOUND', async () => {
    const error = await findMarket(fetchMarkets, { marketId: 'bad' }, 'test').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', detail: { field: '1.price', item: 'bad', drift: true } });
  });

  test('the other items are still found, and an id never sent is still not found', async () => {
    await expect(findMarket(fetchMarkets, { marketId: 'good' })).resolves.toMatchObject({ marketId: 'good' });
    await expect(findMarket(fetchMarkets, { marketId: 'other' })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND' });
  });
});
