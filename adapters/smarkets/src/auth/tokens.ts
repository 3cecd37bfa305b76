import { isPredgateError, missingCredentials } from '@predgate/core';
import { credentialMembers, venueId } from '../venue.js';
import type { SmarketsContext } from '../context.js';

/** An account call with the session token; a token the venue refuses is forgotten, so the next call logs in again. */
export async function authed<T>(ctx: SmarketsContext, run: (auth: string) => Promise<T>): Promise<T> {
  if (!ctx.sessions) throw missingCredentials(venueId, credentialMembers);
  const auth = await ctx.sessions.token();
  try {
    return await run(auth);
  } catch (error) {
    if (isPredgateError(error) && error.code === 'AUTHENTICATION_ERROR') ctx.sessions.forget();
    throw error;
  }
}

/** Public reads carry the token when there is one (live prices), and go without otherwise. */
export function optionalToken(ctx: SmarketsContext): Promise<string | undefined> {
  return ctx.sessions ? ctx.sessions.token() : Promise.resolve(undefined);
}
