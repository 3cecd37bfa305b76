/**
 * The venue's JSON as far as this adapter reads it. Every field is optional:
 * Kalshi has renamed and removed fields before (the integer-cent fields went
 * in 2026), so normalisers check what is there instead of trusting a schema.
 * Current fields are `*_dollars` (price strings) and `*_fp` (count strings);
 * the legacy integer fields are listed where payloads may still carry them.
 */

export interface RawMarket {
  ticker: string;
  event_ticker?: string;
  market_type?: string;
  title?: string;
  subtitle?: string;
  yes_sub_title?: string;
  no_sub_title?: string;
  status?: string;
  result?: string;
  rules_primary?: string;
  rules_secondary?: string;
  open_time?: string;
  close_time?: string;
  expected_expiration_time?: string | null;
  latest_expiration_time?: string | null;
  expiration_time?: string | null;
  price_ranges?: Array<{ start?: string; end?: string; step?: string }> | null;
  settlement_value_dollars?: string | null;
  /** Legacy integer cents. */
  tick_size?: number;
  [field: string]: unknown;
}

export interface RawEvent {
  event_ticker: string;
  series_ticker?: string;
  title?: string;
  sub_title?: string;
  category?: string;
  mutually_exclusive?: boolean;
  markets?: RawMarket[];
  [field: string]: unknown;
}

export interface RawSeries {
  ticker: string;
  title?: string;
  frequency?: string;
  category?: string;
  tags?: string[] | null;
  [field: string]: unknown;
}

/** `[price, count]`: dollar and count strings now; integer cents and counts in legacy books. */
export type RawLevel = [string | number, string | number];

export interface RawBookSides {
  yes_dollars?: RawLevel[] | null;
  no_dollars?: RawLevel[] | null;
  /** Legacy integer cents. */
  yes?: RawLevel[] | null;
  no?: RawLevel[] | null;
}

export interface RawOrderBookAnswer {
  orderbook_fp?: RawBookSides;
  /** Legacy envelope. */
  orderbook?: RawBookSides;
}

export interface RawTrade {
  trade_id: string;
  ticker?: string;
  created_time?: string;
  taker_outcome_side?: string;
  /** Deprecated alias of taker_outcome_side. */
  taker_side?: string;
  [field: string]: unknown;
}

export interface RawCandlePrices {
  [field: string]: string | number | null | undefined;
}

export interface RawCandle {
  end_period_ts: number;
  price?: RawCandlePrices;
  yes_bid?: RawCandlePrices;
  yes_ask?: RawCandlePrices;
  [field: string]: unknown;
}

export interface RawOrder {
  order_id: string;
  ticker: string;
  /** Deprecated next to outcome_side/book_side, still sent. */
  side?: string;
  action?: string;
  outcome_side?: string;
  book_side?: string;
  type?: string;
  status?: string;
  created_time?: string;
  [field: string]: unknown;
}

export interface RawFill {
  fill_id?: string;
  /** Legacy alias of fill_id. */
  trade_id?: string;
  order_id?: string;
  ticker?: string;
  market_ticker?: string;
  side?: string;
  action?: string;
  outcome_side?: string;
  book_side?: string;
  created_time?: string;
  /** Legacy Unix seconds. */
  ts?: number;
  [field: string]: unknown;
}

export interface RawMarketPosition {
  ticker: string;
  [field: string]: unknown;
}

export interface RawBalance {
  /** Cash available for trading, integer cents. */
  balance?: number;
  /** Current value of the positions held, integer cents. */
  portfolio_value?: number;
  [field: string]: unknown;
}

/** A cursor-paged list answer: the items sit under a key named per endpoint. */
export interface RawPage {
  cursor?: string | null;
  [list: string]: unknown;
}
