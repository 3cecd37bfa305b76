import { PredgateError } from '@predgate/core';
import type { Clock } from '@predgate/core';
import type { OpinionApi } from '../api/client.js';
import { venue } from '../venue.js';

export interface MarketTokens {
  yes: string;
  no: string;
  /** The collateral the market trades in (USDT on BNB Chain). */
  quoteToken: string;
  chainId: string;
}

/** Market details change rarely; the official SDK caches them for five minutes too. */
const ttlMs = 300_000;
const maxEntries = 1_000;

/**
 * The YES/NO token ids of a market. Opinion's orders and fills name a market
 * and a side (`outcomeSide` 1 yes, 2 no) but not the token, the unified
 * outcome id: it is read from the market, once per market for five minutes.
 */
export function marketTokens(api: OpinionApi, clock: Clock) {
  const cache = new Map<string, { at: number; tokens: Promise<MarketTokens> }>();

  async function read(marketId: string): Promise<MarketTokens> {
    const raw = await api.market(marketId);
    if (!raw || !raw.yesTokenId || !raw.noTokenId) {
      throw new PredgateError('MARKET_NOT_FOUND', `Market not found on ${venue}: ${marketId}`, { exchange: venue, detail: { marketId } });
    }
    return { yes: raw.yesTokenId, no: raw.noTokenId, quoteToken: raw.quoteToken ?? '', chainId: String(raw.chainId ?? '') };
  }

  return {
    of(marketId: string): Promise<MarketTokens> {
      const now = clock.now();
      const cached = cache.get(marketId);
      if (cached && now - cached.at < ttlMs) return cached.tokens;
      if (cache.size >= maxEntries) cache.clear();
      const tokens = read(marketId);
      cache.set(marketId, { at: now, tokens });
      // A failed read is not kept: the next call asks again.
      tokens.catch(() => cache.delete(marketId));
      return tokens;
    },
    /** The token of `outcomeSide` (1 yes, 2 no) in a market. */
    async tokenOf(marketId: string, outcomeSide: number): Promise<string> {
      const tokens = await this.of(marketId);
      return outcomeSide === 2 ? tokens.no : tokens.yes;
    },
  };
}

export type MarketTokenCache = ReturnType<typeof marketTokens>;
