import { PredgateError } from '@predgate/core';
import type { GammaApi } from '../api/gamma.js';
import type { GammaEvent, GammaMarket } from '../api/types.js';
import { venueId } from '../venue.js';
import { isConditionId, isGammaId } from '../ids.js';

/** A Gamma market with the event it belongs to, when that is known. */
export interface MarketRecord {
  market: GammaMarket;
  event?: GammaEvent;
}

/**
 * Finds raw Gamma markets by any of the names callers use for them. Shared by
 * the catalog, the order-book resolution and order building.
 */
export class MarketLookup {
  /** Outcome token to market: markets never change their tokens, so answers are kept. */
  private readonly tokenMarkets = new Map<string, GammaMarket>();

  constructor(private readonly gamma: GammaApi) {}

  /** By Gamma market id or condition id; undefined when the venue knows neither. */
  async byMarketId(marketId: string): Promise<MarketRecord | undefined> {
    if (isGammaId(marketId)) {
      const market = await this.gamma.market(marketId);
      return market ? { market } : undefined;
    }
    if (isConditionId(marketId)) {
      const [market] = await this.gamma.markets({ condition_ids: marketId });
      return market ? { market } : undefined;
    }
    return undefined;
  }

  /** By market slug (`/markets/slug/...`). */
  async bySlug(slug: string): Promise<MarketRecord | undefined> {
    const market = await this.gamma.marketBySlug(slug);
    return market ? { market } : undefined;
  }

  /** The market holding an outcome token. */
  async byToken(tokenId: string): Promise<GammaMarket | undefined> {
    const known = this.tokenMarkets.get(tokenId);
    if (known) return known;
    const [market] = await this.gamma.markets({ clob_token_ids: tokenId });
    if (market) this.tokenMarkets.set(tokenId, market);
    return market;
  }

  /**
   * A market named by id, condition id or, for the short-interval crypto
   * markets that live one per event, the event's slug (their market slugs are
   * not what callers hold). MARKET_NOT_FOUND when nothing matches.
   */
  async require(reference: string): Promise<MarketRecord> {
    const found = isGammaId(reference) || isConditionId(reference) ? await this.byMarketId(reference) : await this.byEventSlug(reference);
    if (!found) {
      throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${reference}`, { exchange: venueId, detail: { marketId: reference } });
    }
    return found;
  }

  /** The CLOB keys orders and fills by condition id; a Gamma market id is translated. */
  async conditionIdOf(marketId: string): Promise<string> {
    if (!isGammaId(marketId)) return marketId;
    const record = await this.require(marketId);
    return record.market.conditionId ?? marketId;
  }

  private async byEventSlug(slug: string): Promise<MarketRecord | undefined> {
    const [event] = await this.gamma.events({ slug });
    const markets = event?.markets ?? [];
    if (markets.length > 1) {
      throw new PredgateError('VALIDATION_ERROR', `${slug} is an event of ${markets.length} markets: name one of them by market id`, {
        exchange: venueId,
        detail: { slug, marketIds: markets.map((market) => market.id) },
      });
    }
    return event && markets[0] ? { market: markets[0], event } : undefined;
  }
}
