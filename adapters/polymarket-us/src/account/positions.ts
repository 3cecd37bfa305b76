import type { Position } from '@predgate/core';
import type { PolymarketUsContext } from '../context.js';
import { normalizePosition } from '../normalize/account.js';

export async function fetchPositions(ctx: PolymarketUsContext): Promise<Position[]> {
  const positions = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const answer = await ctx.api.positions(cursor);
    for (const raw of answer.positions) {
      const position = normalizePosition(raw.slug, raw);
      if (position) positions.push(position);
    }
    if (answer.eof !== false || !answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return positions;
}
