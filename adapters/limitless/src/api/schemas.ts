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
  prices?: Array<number | string> | null;
  tokens?: { yes: string; no: string } | null;
  address?: string | null;
  negRiskRequestId?: string | null;
  venue?: { exchange?: string | null; adapter?: string | null } | null;
  markets?: RawMarket[] | null;
}

export interface RawBook {
  bids: Array<{ price: number | string; size: number | string }>;
  asks: Array<{ price: number | string; size: number | string }>;
  tokenId?: string | null;
  lastTradePrice?: number | string | null;
}

export interface RawUserOrder {
  id: string;
  createdAt: string;
  tokenId: string;
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
export const optional = Joi.string().allow('', null);
export const market = Joi.object({
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
  volumeFormatted: numeric.allow(null),
  liquidityFormatted: numeric.allow(null),
  prices: Joi.array().items(numeric).max(2).allow(null),
  tokens: Joi.object({ yes: venueValue.id().required(), no: venueValue.id().required() }).allow(null),
  address: optional,
  negRiskRequestId: optional,
  venue: Joi.object({ exchange: optional, adapter: optional }).allow(null),
  markets: Joi.array().items(Joi.link('#market')).allow(null),
}).id('market');
/** Listings are checked market by market: one unreadable market is left out as drift (named by its slug), never the page. */
export const markets = venueValue.items(market, { id: 'slug' });
const level = Joi.object({ price: numeric.required(), size: numeric.required() });
export const book = Joi.object({
  bids: Joi.array().items(level).required(),
  asks: Joi.array().items(level).required(),
  tokenId: optional,
  lastTradePrice: numeric.allow(null),
}).required();
export const history = Joi.object({
  prices: Joi.array()
    .items(Joi.object({ price: numeric.required(), timestamp: venueValue.time().required() }))
    .required(),
}).required();
export const userOrder = Joi.object({
  id: Joi.string().required(),
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
export const positions = Joi.object({
  clob: Joi.array()
    .items(
      Joi.object({
        market: positionMarket,
        positions: Joi.object({ yes: positionSide, no: positionSide }).required(),
        tokensBalance: Joi.object({ yes: numeric.required(), no: numeric.required() }).required(),
        latestTrade: Joi.object({ latestYesPrice: numeric.required(), latestNoPrice: numeric.required() }).required(),
      }),
    )
    .required(),
  amm: Joi.array()
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
    )
    .required(),
}).required();
/** Trade entries must carry what a fill is read from; other entries are only counted past. */
const whenTrade = (schema: Joi.Schema) =>
  schema.allow(null).when('strategy', { is: Joi.valid(...tradeStrategies).required(), then: Joi.required().invalid(null) });
export const historyEntry = Joi.object({
  blockTimestamp: venueValue.time().required(),
  strategy: Joi.string().max(64).required(),
  market: whenTrade(Joi.object({ slug: Joi.string().min(1).max(300).required() })),
  outcomeIndex: whenTrade(Joi.number().integer().valid(0, 1)),
  outcomeTokenAmount: whenTrade(numeric),
  outcomeTokenPrice: whenTrade(numeric),
  collateralAmount: numeric.allow(null),
  transactionHash: whenTrade(Joi.string().min(1).max(200)),
});
