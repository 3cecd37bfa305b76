import type { Balance } from '@predgate/core';
import { authed } from '../auth/tokens.js';
import type { SmarketsContext } from '../context.js';
import { normalizeBalance } from '../normalize/account.js';

export async function fetchBalance(ctx: SmarketsContext): Promise<Balance[]> {
  return [normalizeBalance((await authed(ctx, (auth) => ctx.api.account(auth))).account)];
}
