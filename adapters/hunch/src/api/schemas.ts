import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Hunch's keyless agent API (`/api/agent/v1`). Every success body wraps its
 * payload beside a `meta` object whose members are undocumented, so nothing
 * here reads `meta`. Lists (markets, ladder rungs, odds history, positions)
 * are checked item by item: one unreadable item is left out as drift.
 */

export interface RawRung {
  key: string;
  label?: string | null;
  shortLabel?: string | null;
  lowerUsd?: number | null;
  upperUsd?: number | null;
  startAt?: string | null;
  endAt?: string | null;
  impliedPct?: number | null;
  backedUsd?: number | null;
  isCurrent?: boolean | null;
}

export interface RawOdds {
  yesPriceCents?: number | null;
  noPriceCents?: number | null;
}

export interface RawMarket {
  id: string;
  slug?: string | null;
  question?: string | null;
  shortTitle?: string | null;
  summary?: string | null;
  category?: string | null;
  tokenSymbol?: string | null;
  deadlineAt?: string | null;
  status: string;
  virtualLiquidityUsd?: number | null;
  volumeUsd?: number | null;
  volume24hUsd?: number | null;
  odds?: RawOdds | null;
  outcomes?: RawRung[] | null;
  links?: { app?: string | null } | null;
  [member: string]: unknown;
}

export interface RawHistoryPoint {
  at: string;
  yesPct: number;
  outcomeKey?: string | null;
  sizeUsd: number;
}

export interface RawResearch {
  market: RawMarket;
  resolutionRules?: Record<string, unknown> | null;
  odds?: RawOdds | null;
  ladder?: { outcomes: RawRung[] } | null;
  oddsHistory?: RawHistoryPoint[] | null;
}

export interface RawPosition {
  marketId: string;
  side: string;
  outcomeLabel?: string | null;
  shares: number;
  avgEntryCents: number;
  currentCents?: number | null;
  pnlUsd?: number | null;
  /** `open`, `resolved-won` or `resolved-lost`. */
  status?: string | null;
}

export interface RawReceipt {
  tradeId: string;
  simulated?: boolean;
  marketId?: string;
  side?: string;
  sizeUsd?: number;
  txHash?: string | null;
  position?: { shares?: number | null; avgPriceCents?: number | null } | null;
  recordedAt?: string | null;
}

/** One way to pay, as the x402 challenge of a 402 lists it. */
export interface PaymentRequirement {
  scheme: string;
  network: string;
  maxAmountRequired: string;
  resource: string;
  payTo: string;
  asset: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export const amount = venueValue.amount().allow(null);
const optional = Joi.string().allow('', null);
const cents = venueValue.amount().allow(null);
const rung = Joi.object({
  key: Joi.string().min(1).max(200).required(),
  label: optional,
  shortLabel: optional,
  lowerUsd: amount,
  upperUsd: amount,
  impliedPct: amount,
  backedUsd: amount,
  isCurrent: Joi.boolean().allow(null),
});
const odds = Joi.object({ yesPriceCents: cents, noPriceCents: cents }).allow(null);
export const market = Joi.object({
  id: Joi.string().min(1).max(200).required(),
  slug: optional,
  question: optional,
  shortTitle: optional,
  summary: optional,
  category: optional,
  tokenSymbol: optional,
  deadlineAt: venueValue.time().allow(null, ''),
  status: Joi.string().valid('open', 'closed', 'resolved', 'voided').required(),
  virtualLiquidityUsd: amount,
  volumeUsd: amount,
  volume24hUsd: amount,
  odds,
  outcomes: Joi.array().items(rung).allow(null),
  links: Joi.object({ app: optional }).allow(null),
});
const historyPoint = Joi.object({
  // ISO text: a point whose time does not read is left out with the others' checks.
  at: Joi.string().isoDate().required(),
  yesPct: venueValue.amount().required(),
  outcomeKey: optional,
  sizeUsd: venueValue.amount().required(),
});
export const markets = venueValue.items(market, { id: 'id' });
export const research = Joi.object({
  market: market.required(),
  resolutionRules: Joi.object().allow(null),
  odds,
  // A rung left out of the ladder is only unpriced: the market's own rungs still list it.
  ladder: Joi.object({ outcomes: venueValue.items(rung, { id: 'key' }).required() }).allow(null),
  oddsHistory: venueValue.items(historyPoint, { id: 'at' }).allow(null),
});
export const positions = venueValue.items(
  Joi.object({
    marketId: Joi.string().min(1).required(),
    side: Joi.string().min(1).required(),
    outcomeLabel: optional,
    shares: venueValue.amount().required(),
    avgEntryCents: venueValue.amount().required(),
    currentCents: cents,
    pnlUsd: amount,
    status: optional,
  }),
  { id: 'marketId' },
);
export const receipt = Joi.object({
  tradeId: Joi.string().min(1).required(),
  simulated: Joi.boolean(),
  marketId: Joi.string(),
  side: Joi.string(),
  sizeUsd: venueValue.amount(),
  txHash: optional,
  position: Joi.object({ shares: amount, avgPriceCents: cents }).allow(null),
  recordedAt: venueValue.time().allow(null),
});
export const paymentChallenge = Joi.object({
  x402Version: Joi.number().valid(1).required(),
  accepts: Joi.array()
    .min(1)
    .items(
      Joi.object({
        scheme: Joi.string().required(),
        network: Joi.string().required(),
        maxAmountRequired: Joi.string()
          .pattern(/^\d{1,30}$/)
          .required(),
        resource: Joi.string().max(2048).required(),
        payTo: Joi.string().required(),
        asset: Joi.string().required(),
        maxTimeoutSeconds: Joi.number().integer().min(1).required(),
        extra: Joi.object({ name: Joi.string().required(), version: Joi.string().required() }).required(),
      }),
    )
    .required(),
}).required();

/** The body of a bet, sent twice (unpaid, then with X-PAYMENT) byte for byte. */
export interface TradeBody {
  marketId: string;
  side: string;
  sizeUsd: number;
  idemKey: string;
  walletAddress: string;
  simulate: boolean;
  quoteId?: string;
  minSharesOut?: number;
}
