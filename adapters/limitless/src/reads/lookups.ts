import { PredgateError, collectingDrift, notSupported, unlessMissing } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { RawMarket } from '../api/schemas.js';
import { pagePerRequest, venueId } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { ammOutcomeId } from '../ids.js';
import type { OutcomeIds } from '../ids.js';
import { isAmm, normalizeEvent, tokenIds } from '../normalize/events.js';

/** Every market read teaches the instance its outcome ids: books are keyed by slug, positions and the log name sides by index. */
export function remember<T extends Market>(ctx: LimitlessContext, markets: T[]): T[] {
  for (const market of markets) {
    market.outcomes.forEach((outcome, index) => ctx.bookOfToken.set(outcome.outcomeId, { slug: market.marketId, side: index === 0 ? 'yes' : 'no' }));
    if (market.outcomes.length === 2) ctx.outcomesOfMarket.set(market.marketId, [market.outcomes[0]!.outcomeId, market.outcomes[1]!.outcomeId]);
  }
  return markets;
}

export function rememberEvents(ctx: LimitlessContext, events: Event[]): Event[] {
  for (const event of events) remember(ctx, event.markets);
  return events;
}

export const marketBySlug = (ctx: LimitlessContext, slug: string): Promise<RawMarket | undefined> => unlessMissing(ctx.api.market(slug));

/**
 * The markets a slug names (a single market, or a group's child), remembered.
 * A child the venue sent unreadable (left out of its group as drift) answers
 * its drift error naming the field, not an empty list.
 */
export async function marketMarkets(ctx: LimitlessContext, slug: string): Promise<Market[]> {
  const { value: raw, reports } = await collectingDrift(() => marketBySlug(ctx, slug));
  const unreadable = reports.find((report) => report.detail?.item === slug);
  if (unreadable) throw unreadable;
  if (!raw) return [];
  return remember(
    ctx,
    normalizeEvent(raw).markets.filter((market) => market.marketId === slug || raw.slug === slug),
  );
}

/** The slug and side of a book request: a slug with `yes`/`no`, or an outcome id (resolved through the markets read). */
export async function bookTarget(ctx: LimitlessContext, id: string, wanted: string | undefined): Promise<{ slug: string; side: 'yes' | 'no' }> {
  const outcome = wanted !== undefined && wanted !== 'yes' && wanted !== 'no' ? wanted : /^\d{20,}$/.test(id) || id.includes(':') ? id : undefined;
  if (outcome !== undefined) {
    const amm = /^(.+):(yes|no)$/.exec(outcome);
    if (amm) throw notSupported('fetchOrderBook', `${amm[1]} is an AMM market: its prices come from a pool, there is no order book`);
    let target = ctx.bookOfToken.get(outcome);
    // A token not seen yet: the active listing is searched for it, a few pages deep.
    for (let page = 1; page <= 8 && !target; page += 1) {
      const { data } = await ctx.api.active(page, pagePerRequest);
      rememberEvents(ctx, data.map(normalizeEvent));
      target = ctx.bookOfToken.get(outcome);
      if (data.length < pagePerRequest) break;
    }
    if (!target) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcome.slice(0, 100)}`, { detail: { outcomeId: outcome } });
    return target;
  }
  return { slug: id, side: wanted === 'no' ? 'no' : 'yes' };
}

export async function outcomeIdsOf(ctx: LimitlessContext, slug: string): Promise<OutcomeIds> {
  const known = ctx.outcomesOfMarket.get(slug);
  if (known) return known;
  const answer = await marketBySlug(ctx, slug);
  // A child of a group is expected to answer as itself; should the group answer instead, the child is picked from it.
  const raw = answer?.markets?.find((child) => child.slug === slug) ?? answer;
  const tokens = raw && tokenIds(raw);
  if (tokens) ctx.outcomesOfMarket.set(slug, tokens);
  else if (raw && isAmm(raw)) ctx.outcomesOfMarket.set(slug, [ammOutcomeId(slug, 'yes'), ammOutcomeId(slug, 'no')]);
  const ids = ctx.outcomesOfMarket.get(slug);
  if (!ids) throw new PredgateError('MARKET_NOT_FOUND', `${venueId} has no binary market ${slug.slice(0, 100)}`, { detail: { marketId: slug } });
  return ids;
}
