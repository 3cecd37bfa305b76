import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import { activity, offerWithMatches, offers } from './schemas.js';
import type { RawActivity, RawOffer } from './schemas.js';

/** The venue's largest `limit` on the offers listing. */
export const maxOffers = 500;

/** SuiBets' P2P REST routes, each answer checked before it is read. */
export function suibetsApi(http: VenueHttpClient, baseUrl: string) {
  const read = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query }), { venue: http.venue, endpoint });

  return {
    /** `GET /api/p2p/offers`: a bare array, odds descending; without `status` only open and partly matched offers that have not expired. */
    offers: (query: { eventId?: string; status?: 'all'; limit: number }) => read<RawOffer[]>(offers, 'GET /api/p2p/offers', '/api/p2p/offers', { ...query }),
    /** `GET /api/p2p/offers/{id}`: the offer with its taker fills; ids are integers. */
    offer: (id: number) => read<RawOffer>(offerWithMatches, 'GET /api/p2p/offers/{id}', `/api/p2p/offers/${id}`),
    /** `GET /api/p2p/my?wallet=`: the wallet's own offers and the offers it took (newest 50 of each). */
    activity: (wallet: string) => read<RawActivity>(activity, 'GET /api/p2p/my', '/api/p2p/my', { wallet }),
  };
}

export type SuibetsApi = ReturnType<typeof suibetsApi>;
