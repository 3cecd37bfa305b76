/**
 * One market-channel event as a row, the shape of a row of pmxt's v2 hourly
 * archive files. A `price_change` message becomes one row per `price_changes[]` entry
 * (each entry names its own token), so every row belongs to at most one token.
 * Decimals stay strings until the Parquet writer: float round-trips corrupt values like `0.982`.
 */
export interface MarketRow {
  /** Local receive time, Unix ms. The hour a row belongs to is the hour of this time. */
  receivedAt: number;
  /** The venue's time, Unix ms (the receive time when the venue sent none). */
  timestamp: number;
  /** Condition id; variable length (V2 condition ids do not fit 66 characters). */
  market: string;
  eventType: MarketEventType;
  /** Outcome token id; empty for market-wide announcements. */
  assetId: string;
  /** `book` only: worst to best, as the venue sends them. */
  bids?: PriceLevel[];
  asks?: PriceLevel[];
  /**
   * `price_change`: the level's price; `last_trade_price`: the trade price;
   * `book`: the last trade price sent with the initial snapshot.
   */
  price?: string;
  /** `price_change`: the new total size at `price` ("0" removes the level); `last_trade_price`: the traded size. */
  size?: string;
  side?: 'BUY' | 'SELL';
  bestBid?: string;
  bestAsk?: string;
  feeRateBps?: string;
  transactionHash?: string;
  oldTickSize?: string;
  /** `tick_size_change`: the new tick; `book`: the tick size sent with the initial snapshot. */
  newTickSize?: string;
}

export interface PriceLevel {
  price: string;
  size: string;
}

export const marketEventTypes = ['book', 'price_change', 'tick_size_change', 'last_trade_price', 'best_bid_ask', 'new_market', 'market_resolved'] as const;
export type MarketEventType = (typeof marketEventTypes)[number];
