import { isContractSide } from '../ids.js';
import type { ContractSide } from '../ids.js';

export interface Direction {
  /** The contract traded. */
  contract: ContractSide;
  action?: 'buy' | 'sell';
}

interface DirectionFields {
  side?: string;
  action?: string;
  outcome_side?: string;
  book_side?: string;
}

/**
 * Which contract an order or fill is in, and whether it bought or sold.
 * The deprecated `side`/`action` pair says what the account asked for
 * ("sell YES"). The newer `outcome_side`/`book_side` pair cannot tell
 * "sell YES" from the economically equal "buy NO"; it is read only when the
 * old pair is gone, and then a YES bid or a NO ask (both the side's natural
 * book) is a buy.
 */
export function directionOf(fields: DirectionFields): Direction | undefined {
  if (isContractSide(fields.side)) {
    return { contract: fields.side, action: fields.action === 'buy' || fields.action === 'sell' ? fields.action : undefined };
  }
  if (!isContractSide(fields.outcome_side)) return undefined;
  const contract = fields.outcome_side;
  if (fields.book_side !== 'bid' && fields.book_side !== 'ask') return { contract };
  const natural = contract === 'yes' ? 'bid' : 'ask';
  return { contract, action: fields.book_side === natural ? 'buy' : 'sell' };
}
