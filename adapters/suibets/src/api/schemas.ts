import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * SuiBets' P2P payloads. The schemas describe the server's own shape (bare
 * arrays, human-unit stakes, lower-case statuses), not the
 * `{offers}`/`creatorOdds` shape pmxt expects, which the server does not send.
 */

export interface RawOffer {
  /** An integer; a numeric string reads the same. */
  id: number | string;
  creatorWallet?: string | null;
  eventId: string | number;
  eventName?: string | null;
  homeTeam?: string | null;
  awayTeam?: string | null;
  leagueName?: string | null;
  sportName?: string | null;
  matchDate?: string | null;
  prediction: string;
  marketType?: string | null;
  /** Decimal odds of the creator's pick. */
  odds: number | string;
  /** Human units of `currency`. */
  creatorStake: number | string;
  takerStake: number | string;
  currency: string;
  /** Taker-side stake already matched, human units. */
  filledStake?: number | string | null;
  status: string;
  expiresAt?: string | null;
  createdAt?: string | null;
  onchainOfferId?: string | null;
  liveOdds?: boolean | null;
  /** Who won a settled offer: `creator` or `taker`; null before settlement (and on a void). */
  winner?: string | null;
  /** The on-chain offer object, where the offer is escrowed: its `statusLabel` says `maker_won` or `taker_won` once settled. */
  onchainState?: { statusLabel?: string | null } | null;
}

export interface RawMatch {
  offerId: number | string;
  stake: number | string;
  status?: string | null;
  offer?: RawOffer;
}

export interface RawActivity {
  myOffers: RawOffer[];
  myMatches: RawMatch[];
}

/** Stakes are human units, floats in the model: past 2^53 the nearest double, never refused. */
const numeric = venueValue.amount();
/** Offer ids are integers; a numeric string reads the same. */
const offerId = () => Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d{1,15}$/, 'integer'));
const optionalText = Joi.string().allow('', null);

const offer = Joi.object({
  id: offerId().required(),
  eventId: venueValue.id().required(),
  eventName: optionalText,
  homeTeam: optionalText,
  awayTeam: optionalText,
  leagueName: optionalText,
  sportName: optionalText,
  matchDate: venueValue.time().allow(null, ''),
  prediction: Joi.string().min(1).max(100).required(),
  marketType: optionalText,
  // Decimal odds below or at 1 would make the implied probability 1 or more: not an answer to read.
  odds: Joi.alternatives(Joi.number().greater(1), Joi.string().pattern(/^\d+(\.\d+)?$/)).required(),
  creatorStake: numeric.required(),
  takerStake: numeric.required(),
  currency: Joi.string().min(1).max(20).required(),
  filledStake: numeric.allow(null),
  status: Joi.string().min(1).max(40).required(),
  expiresAt: venueValue.time().allow(null, ''),
  createdAt: venueValue.time().allow(null, ''),
  onchainOfferId: optionalText,
  liveOdds: Joi.boolean().allow(null),
  winner: optionalText,
  onchainState: Joi.object({ statusLabel: optionalText }).allow(null),
});

/** Offers read one by one: an unreadable offer is left out as drift (named by its id), never the list. */
export const offers = venueValue.items(offer, { id: 'id' }).required();
export const offerWithMatches = offer.keys({ matches: Joi.array().items(Joi.object()).allow(null) }).required();
export const activity = Joi.object({
  myOffers: offers,
  myMatches: venueValue
    .items(Joi.object({ offerId: offerId().required(), stake: numeric.required(), status: optionalText, offer }), { id: 'offerId' })
    .required(),
}).required();
