import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { amount, market, markets, positions, receipt, research } from './schemas.js';
import type { RawMarket, RawPosition, RawReceipt, RawResearch } from './schemas.js';

export function hunchApi(http: VenueHttpClient, baseUrl: string) {
  const root = `${baseUrl}/api/agent/v1`;
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${root}${path}`, query }), { venue: http.venue, endpoint });
  const segment = encodeURIComponent;

  return {
    markets: (query: Record<string, QueryValue>) =>
      get<{ markets: RawMarket[]; nextCursor?: string | null }>(
        Joi.object({ markets: markets.required(), nextCursor: Joi.string().max(2048).allow(null, '') }).required(),
        'GET /markets',
        '/markets',
        query,
      ),
    market: (idOrSlug: string) =>
      get<{ market: RawMarket }>(Joi.object({ market: market.required() }).required(), 'GET /markets/{id}', `/markets/${segment(idOrSlug)}`).then(
        (body) => body.market,
      ),
    research: (idOrSlug: string) =>
      get<{ research: RawResearch }>(
        Joi.object({ research: research.required() }).required(),
        'GET /markets/{id}/research',
        `/markets/${segment(idOrSlug)}/research`,
      ).then((body) => body.research),
    positions: (wallet: string) =>
      get<{ positions: RawPosition[] }>(Joi.object({ positions: positions.required() }).required(), 'GET /positions', '/positions', {
        wallet,
      }).then((body) => body.positions),
    readiness: (wallet: string) =>
      get<{ readiness: { usdcBalanceUsd: number | null } }>(
        Joi.object({ readiness: Joi.object({ usdcBalanceUsd: amount.required() }).required() }).required(),
        'GET /wallet/{address}/readiness',
        `/wallet/${segment(wallet)}/readiness`,
      ).then((body) => body.readiness),
    quote: (marketId: string, side: string, sizeUsd: number, wallet: string) =>
      get<{ quote: { quoteId: string; suggestedMinSharesOut: number } }>(
        Joi.object({
          quote: Joi.object({ quoteId: Joi.string().min(1).required(), suggestedMinSharesOut: venueValue.amount().required() }).required(),
        }).required(),
        'GET /quote',
        '/quote',
        { marketId, side, sizeUsd, wallet },
      ).then((body) => body.quote),
    /** A bet: a write, never retried; `payment` is the X-PAYMENT header answering the venue's 402. */
    trade: async (body: string, payment?: string) =>
      checkPayload<{ replay?: boolean; receipt: RawReceipt }>(
        Joi.object({ replay: Joi.boolean(), receipt: receipt.required() }).required(),
        await http.json({
          method: 'POST',
          url: `${root}/trade`,
          body,
          headers: { 'content-type': 'application/json', ...(payment ? { 'x-payment': payment } : {}) },
        }),
        { venue: http.venue, endpoint: 'POST /trade' },
      ),
  };
}

export type HunchApi = ReturnType<typeof hunchApi>;
