import type { Balance, Market, Position } from '@predgate/core';
import type { RawBalance, RawMarketPosition } from '../api/types.js';
import { outcomeIdOf } from '../ids.js';
import { countField, dollarsField, roundPrice } from './numbers.js';

/**
 * The account's USD balance. Kalshi reports the cash available for trading
 * (`balance`) and the current value of the positions held
 * (`portfolio_value`), both in cents; the total is their sum and the part
 * not available as cash is the positions' value.
 */
export function normalizeBalance(raw: RawBalance): Balance {
  const available = dollarsField(raw, 'balance') ?? 0;
  const positions = Math.max(0, dollarsField(raw, 'portfolio_value') ?? 0);
  return { currency: 'USD', total: roundPrice(available + positions), available, locked: positions };
}

/**
 * A market position. Kalshi nets each market into one signed count: positive
 * holds YES contracts, negative holds NO contracts; the unified position is
 * that many contracts of that outcome. The entry price is the cost basis per
 * contract (`market_exposure` / contracts); the current price is the
 * outcome's price in `market`, when it could be looked up.
 */
export function normalizePosition(raw: RawMarketPosition, market: Market | undefined): Position {
  const signed = countField(raw, 'position') ?? 0;
  const contract = signed < 0 ? 'no' : 'yes';
  const size = Math.abs(signed);
  const exposure = dollarsField(raw, 'market_exposure') ?? 0;
  const entryPrice = size > 0 ? Math.min(1, roundPrice(exposure / size)) : 0;
  const outcomeId = outcomeIdOf(raw.ticker, contract);
  const outcome = market?.outcomes.find((candidate) => candidate.outcomeId === outcomeId);
  const currentPrice = outcome?.price ?? entryPrice;
  const realized = dollarsField(raw, 'realized_pnl');
  return {
    marketId: raw.ticker,
    outcomeId,
    outcomeLabel: outcome?.label ?? (contract === 'yes' ? 'Yes' : 'No'),
    size,
    entryPrice,
    currentPrice,
    unrealizedPnL: roundPrice((currentPrice - entryPrice) * size),
    ...(realized === undefined ? {} : { realizedPnL: realized }),
  };
}
