import { complement, compact, pick, roundTo, text, toIsoDate, toNumber, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus } from '@predgate/core';
import type { RawOffer } from '../api/schemas.js';
import { venueId, webUrl } from '../venue.js';

/**
 * One offer is one market of two outcomes: the creator's pick, priced at the
 * implied probability of its decimal odds (1/odds), and the taker's side,
 * which wins whenever the pick does not (1 − 1/odds). Stakes stay in the
 * offer's own currency (SUI, SBETS, USDC, ...), named in `sourceMetadata`.
 */
export function normalizeOffer(raw: RawOffer): Market {
  const marketId = String(raw.id);
  const odds = toNumber(raw.odds)!;
  const pickLabel = predictionLabel(raw.prediction, raw);
  const creatorPrice = roundTo(1 / odds, 10);
  const takerStake = toNumber(raw.takerStake)!;
  const filled = toNumber(raw.filledStake) ?? 0;
  const won = winningSide(raw);
  const prices = won === undefined ? [creatorPrice, complement(creatorPrice)] : won === 'creator' ? [1, 0] : [0, 1];
  return withBinaryRefs(
    compact({
      marketId,
      eventId: String(raw.eventId),
      title: `${eventTitle(raw)}: ${pickLabel} @ ${odds}`,
      description: offerDescription(raw, pickLabel, odds),
      slug: marketId,
      url: webUrl,
      outcomes: [
        { outcomeId: `${marketId}:creator`, marketId, label: pickLabel, price: prices[0]! },
        { outcomeId: `${marketId}:taker`, marketId, label: oppositeLabel(raw.prediction, pickLabel), price: prices[1]! },
      ],
      resolutionDate: toIsoDate(raw.matchDate) ?? toIsoDate(raw.expiresAt),
      // The venue publishes no 24-hour figure: the matched stake is the offer's whole volume.
      volume24h: 0,
      volume: filled,
      liquidity: Math.max(0, roundTo(takerStake - filled, 9)),
      status: marketStatus(raw.status),
      category: 'Sports',
      tags: tagsOf(raw),
      contractAddress: text(raw.onchainOfferId),
      sourceExchange: venueId,
      sourceMetadata: compact({
        ...pick(raw, [
          'currency',
          'marketType',
          'prediction',
          'odds',
          'creatorStake',
          'takerStake',
          'filledStake',
          'status',
          'creatorWallet',
          'expiresAt',
          'liveOdds',
          'onchainOfferId',
          'onchainState',
        ]),
        winner: won === undefined ? undefined : won === 'creator' ? pickLabel : oppositeLabel(raw.prediction, pickLabel),
        winningOutcomeId: won === undefined ? undefined : `${marketId}:${won}`,
      }),
    }),
  );
}

/**
 * The side a settled offer paid: the venue's `winner` (`creator`/`taker`), or the
 * escrow's `maker_won`/`taker_won`. Priced 1/0 in place of the pre-match odds;
 * a void or unsettled offer names none.
 */
function winningSide(raw: RawOffer): 'creator' | 'taker' | undefined {
  const winner = raw.winner?.toLowerCase();
  const label = raw.onchainState?.statusLabel?.toLowerCase();
  if (winner === 'creator' || label === 'maker_won') return 'creator';
  if (winner === 'taker' || label === 'taker_won') return 'taker';
  return undefined;
}

/** Offers grouped by fixture, in the order the venue listed them. */
export function groupIntoEvents(raws: readonly RawOffer[]): Event[] {
  const byEvent = new Map<string, RawOffer[]>();
  for (const raw of raws) {
    const key = String(raw.eventId);
    byEvent.set(key, [...(byEvent.get(key) ?? []), raw]);
  }
  return [...byEvent].map(([eventId, group]) => normalizeEvent(eventId, group));
}

function normalizeEvent(eventId: string, group: readonly RawOffer[]): Event {
  const first = group[0]!;
  const markets = group.map(normalizeOffer);
  const currencies = new Set(group.map((raw) => raw.currency));
  return compact({
    id: eventId,
    title: eventTitle(first),
    description: [text(first.leagueName), text(first.sportName)].filter(Boolean).join(' · '),
    slug: eventId,
    url: webUrl,
    markets,
    volume24h: 0,
    // Stakes in different currencies do not add up to one figure.
    volume:
      currencies.size === 1
        ? roundTo(
            markets.reduce((sum, market) => sum + (market.volume ?? 0), 0),
            9,
          )
        : undefined,
    category: 'Sports',
    tags: ['Sports', 'P2P', 'Sui', ...optionalTags(first)],
    sourceExchange: venueId,
    sourceMetadata: { ...pick(first, ['homeTeam', 'awayTeam', 'leagueName', 'sportName', 'matchDate']), currencies: [...currencies] },
  });
}

const statuses: Record<string, MarketStatus> = {
  open: 'active',
  partial: 'active',
  filled: 'inactive',
  settling: 'inactive',
  settled: 'resolved',
  won: 'resolved',
  lost: 'resolved',
  cancelled: 'closed',
  expired: 'closed',
  refund_pending: 'closed',
  refunded: 'closed',
};

/** Unknown status words leave the status out (the venue's word stays in `sourceMetadata.status`). */
function marketStatus(status: string): MarketStatus | undefined {
  return statuses[status.toLowerCase()];
}

function eventTitle(raw: RawOffer): string {
  return text(raw.eventName) ?? [text(raw.homeTeam), text(raw.awayTeam)].filter(Boolean).join(' vs ');
}

function optionalTags(raw: RawOffer): string[] {
  return [text(raw.sportName), text(raw.leagueName)].filter((tag): tag is string => tag !== undefined);
}

function tagsOf(raw: RawOffer): string[] {
  return ['Sports', 'P2P', ...optionalTags(raw)];
}

function offerDescription(raw: RawOffer, pickLabel: string, odds: number): string {
  const where = [text(raw.sportName), text(raw.leagueName)].filter(Boolean).join(', ');
  const stakes = `${toNumber(raw.creatorStake)} ${raw.currency} against up to ${toNumber(raw.takerStake)} ${raw.currency}`;
  return `${where ? `${where}: ` : ''}the creator backs ${pickLabel} at decimal odds ${odds}, staking ${stakes} from takers.`;
}

/** The creator's pick in words, from the venue's prediction vocabulary. */
export function predictionLabel(prediction: string, teams: Pick<RawOffer, 'homeTeam' | 'awayTeam'>): string {
  const home = text(teams.homeTeam) ?? 'Home';
  const away = text(teams.awayTeam) ?? 'Away';
  const words: Record<string, string> = {
    home,
    away,
    draw: 'Draw',
    btts_yes: 'Both teams score',
    btts_no: 'Not both teams score',
    home_or_draw: `${home} or draw`,
    away_or_draw: `${away} or draw`,
    home_or_away: `${home} or ${away}`,
    ht_home: `${home} at half-time`,
    ht_draw: 'Draw at half-time',
    ht_away: `${away} at half-time`,
    cs_home: `${home} clean sheet`,
    cs_away: `${away} clean sheet`,
  };
  const known = words[prediction];
  if (known) return known;
  const line = /^(over|under)_(\d+(?:\.\d+)?)$/.exec(prediction);
  if (line) return `${line[1] === 'over' ? 'Over' : 'Under'} ${line[2]}`;
  const handicap = /^(home|away)_([+-]\d+(?:\.\d+)?)$/.exec(prediction);
  if (handicap) return `${handicap[1] === 'home' ? home : away} ${handicap[2]}`;
  const score = /^score_(\d+)-(\d+)$/.exec(prediction);
  if (score) return `Score ${score[1]}-${score[2]}`;
  return prediction;
}

/** The taker's side: the exact complement where the market has two ways, else "Not <pick>". */
function oppositeLabel(prediction: string, pickLabel: string): string {
  const line = /^(over|under)_(\d+(?:\.\d+)?)$/.exec(prediction);
  if (line) return `${line[1] === 'over' ? 'Under' : 'Over'} ${line[2]}`;
  if (prediction === 'btts_yes') return 'Not both teams score';
  if (prediction === 'btts_no') return 'Both teams score';
  return `Not ${pickLabel}`;
}
