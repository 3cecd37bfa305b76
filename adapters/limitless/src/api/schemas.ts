import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Limitless' REST API. Markets are keyed by slug; numbers are not
 * type-stable (strings or numbers); raw amounts carry 6 decimals beside their
 * `*Formatted` siblings; book sizes are raw share units.
 */

export interface RawMarket {
  id?: number | string | null;
  slug: string;
  title?: string | null;
  description?: string | null;
  tradeType?: string | null;
  marketType?: string | null;
  status?: string | null;
  expired?: boolean | null;
  winningOutcomeIndex?: number | null;
  expirationTimestamp?: number | string | null;
  categories?: string[] | null;
  tags?: string[] | null;
  logo?: string | null;
  volumeFormatted?: string | number | null;
  liquidityFormatted?: string | number | null;
  prices?: Array<number | string | null> | null;
  tokens?: { yes: string | number; no: string | number } | null;
  address?: string | null;
  negRiskRequestId?: string | null;
  venue?: { exchange?: string | null; adapter?: string | null } | null;
  markets?: RawMarket[] | null;
}

/** A series of `historical-price`; a group's answer has one per child, named by `slug`. */
export interface RawPriceSeries {
  title?: string | null;
  slug?: string | null;
  prices: Array<{ price: number | string; timestamp: number | string }>;
}

export interface RawBook {
  bids: Array<{ price: number | string; size: number | string }>;
  asks: Array<{ price: number | string; size: number | string }>;
  tokenId?: string | null;
  lastTradePrice?: number | string | null;
}

export interface RawUserOrder {
  id: string | number;
  createdAt: string;
  tokenId: string | number;
  side: 'BUY' | 'SELL';
  price?: string | number | null;
  quantity: string | number;
  status: string;
  orderType?: string | null;
}

export interface RawPositionSide {
  fillPrice: string | number;
  realisedPnl: string | number;
  unrealizedPnl: string | number;
}

export interface RawPositionMarket {
  slug: string;
  title?: string | null;
  winningOutcomeIndex?: number | null;
}

export interface RawClobPosition {
  market: RawPositionMarket;
  positions: { yes: RawPositionSide; no: RawPositionSide };
  tokensBalance: { yes: string | number; no: string | number };
  latestTrade: { latestYesPrice: string | number; latestNoPrice: string | number };
}

export interface RawAmmPosition {
  market: RawPositionMarket;
  outcomeIndex: 0 | 1;
  outcomeTokenAmount: string | number;
  averageFillPrice: string | number;
  realizedPnl: string | number;
  unrealizedPnl: string | number;
  latestTrade?: { outcomeTokenPrice?: string | number | null } | null;
}

export interface RawPositions {
  clob: RawClobPosition[];
  amm: RawAmmPosition[];
}

export interface RawHistoryEntry {
  blockTimestamp: number | string;
  strategy: string;
  market?: { slug: string } | null;
  outcomeIndex?: number | null;
  outcomeTokenAmount?: string | number | null;
  outcomeTokenPrice?: string | number | null;
  collateralAmount?: string | number | null;
  transactionHash?: string | null;
}

/** The history entries that are trades; the others are splits, merges, conversions and claims. */
export const tradeStrategies = ['Buy', 'Sell', 'Limit Buy', 'Limit Sell', 'Market Buy', 'Market Sell'];

export const numeric = venueValue.numeric();
export const amount = venueValue.amount();
export const optional = Joi.string().allow('', null);
/** What a market sends, a group's child included (a child has no children of its own). */
const marketMembers = {
  id: venueValue.id().allow(null),
  slug: Joi.string().min(1).max(300).required(),
  title: optional,
  description: optional,
  tradeType: optional,
  marketType: optional,
  status: optional,
  expired: Joi.boolean().allow(null),
  winningOutcomeIndex: Joi.number().integer().valid(0, 1).allow(null),
  expirationTimestamp: venueValue.time().allow(null, ''),
  categories: Joi.array().items(Joi.string()).allow(null),
  tags: Joi.array().items(Joi.string()).allow(null),
  logo: optional,
  // Floats in the model: past 2^53 they are read as the nearest double.
  volumeFormatted: amount.allow(null),
  liquidityFormatted: amount.allow(null),
  prices: Joi.array().items(amount.allow(null)).max(2).allow(null),
  // Token ids are 70-78 digits: read with exactIntegers, one sent bare keeps its digits.
  tokens: Joi.object({ yes: venueValue.id().required(), no: venueValue.id().required() }).allow(null),
  address: optional,
  negRiskRequestId: optional,
  venue: Joi.object({ exchange: optional, adapter: optional }).allow(null),
};
/** A group's children are checked one by one: an unreadable child is left out as drift (named by its slug), never the group. */
export const market = Joi.object({ ...marketMembers, markets: venueValue.items(Joi.object(marketMembers), { id: 'slug' }).allow(null) });
/** Listings are checked market by market: one unreadable market is left out as drift (named by its slug), never the page. */
export const markets = venueValue.items(market, { id: 'slug' });
/** A book level; one unreadable level is left out as drift (named by its price), never the book. Sizes are raw units, read as the nearest double. */
const level = Joi.object({ price: numeric.required(), size: amount.required() });
export const book = Joi.object({
  bids: venueValue.items(level, { id: 'price' }).required(),
  asks: venueValue.items(level, { id: 'price' }).required(),
  tokenId: optional,
  lastTradePrice: numeric.allow(null),
}).required();
/** One unreadable price point is left out as drift (named by its time), never the series. */
const pricePoints = venueValue.items(Joi.object({ price: amount.required(), timestamp: venueValue.time().required() }), { id: 'timestamp' }).required();
/**
 * `historical-price` answers a market's series (`{ title, prices }`), or for a
 * group one series per child market (`[{ title, slug, prices }]`).
 */
export const history = Joi.alternatives()
  .conditional(Joi.array(), {
    then: Joi.array().items(Joi.object({ title: optional, slug: optional, prices: pricePoints })),
    otherwise: Joi.object({ title: optional, prices: pricePoints }),
  })
  .required();
export const userOrder = Joi.object({
  id: venueValue.id().required(),
  createdAt: venueValue.time().required(),
  tokenId: venueValue.id().required(),
  side: Joi.string().valid('BUY', 'SELL').required(),
  price: numeric.allow(null),
  quantity: numeric.required(),
  status: Joi.string().required(),
  orderType: optional,
});

const positionMarket = Joi.object({
  slug: Joi.string().min(1).max(300).required(),
  title: Joi.string().allow('', null),
  winningOutcomeIndex: Joi.number().integer().valid(0, 1).allow(null),
}).required();
const positionSide = Joi.object({ fillPrice: numeric.required(), realisedPnl: numeric.required(), unrealizedPnl: numeric.required() }).required();
/** Position lists are checked entry by entry: an unreadable entry is left out as drift (named by its market slug), never the portfolio. */
export const positions = Joi.object({
  clob: venueValue
    .items(
      Joi.object({
        market: positionMarket,
        positions: Joi.object({ yes: positionSide, no: positionSide }).required(),
        tokensBalance: Joi.object({ yes: numeric.required(), no: numeric.required() }).required(),
        latestTrade: Joi.object({ latestYesPrice: numeric.required(), latestNoPrice: numeric.required() }).required(),
      }),
      { id: 'market.slug' },
    )
    .required(),
  amm: venueValue
    .items(
      Joi.object({
        market: positionMarket,
        outcomeIndex: Joi.number().integer().valid(0, 1).required(),
        outcomeTokenAmount: numeric.required(),
        averageFillPrice: numeric.required(),
        realizedPnl: numeric.required(),
        unrealizedPnl: numeric.required(),
        latestTrade: Joi.object({ outcomeTokenPrice: numeric.allow(null) }).allow(null),
      }),
      { id: 'market.slug' },
    )
    .required(),
}).required();
/** Trade entries must carry what a fill is read from; other entries are only counted past. */
const whenTrade = (schema: Joi.Schema) =>
  schema.allow(null).when('strategy', { is: Joi.valid(...tradeStrategies).required(), then: Joi.required().invalid(null) });
export const historyEntry = Joi.object({
  // A time of 0 is no time (never 1970): the entry is left out as drift.
  blockTimestamp: venueValue.time().invalid(0, '0').required(),
  strategy: Joi.string().max(64).required(),
  market: whenTrade(Joi.object({ slug: Joi.string().min(1).max(300).required() })),
  outcomeIndex: whenTrade(Joi.number().integer().valid(0, 1)),
  outcomeTokenAmount: whenTrade(numeric),
  outcomeTokenPrice: whenTrade(numeric),
  collateralAmount: numeric.allow(null),
  transactionHash: whenTrade(Joi.string().min(1).max(200)),
});
