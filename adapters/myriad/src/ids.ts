import type { RawMarket } from './api/schemas.js';

/** Market ids repeat across networks: a market is `<network>:<id>`, an outcome `<network>:<id>:<outcome>`. */
export const marketKey = (raw: Pick<RawMarket, 'networkId' | 'id'>) => `${Number(raw.networkId)}:${Number(raw.id)}`;

export function partsOf(id: string): { networkId: number; marketId: number; outcomeId?: number } | undefined {
  const match = /^(\d{1,9}):(\d{1,12})(?::(\d{1,3}))?$/.exec(id);
  return match ? { networkId: Number(match[1]), marketId: Number(match[2]), ...(match[3] === undefined ? {} : { outcomeId: Number(match[3]) }) } : undefined;
}
