import type { Position } from '@predgate/core';
import type { GeminiContext } from '../context.js';
import { normalizePosition } from '../normalize/account.js';

export async function fetchPositions(ctx: GeminiContext): Promise<Position[]> {
  return (await ctx.api.positions()).positions.map(normalizePosition);
}
