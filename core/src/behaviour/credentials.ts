import { PredgateError } from '../errors.js';
import type { Credentials } from '../model/index.js';

/**
 * The credentials, when every member an authenticated call needs is present;
 * otherwise AUTHENTICATION_ERROR naming the missing members (never their values).
 */
export function requireCredentials(credentials: Credentials | undefined, members: readonly string[], venue: string): Credentials {
  const missing = members.filter((member) => {
    const value = credentials?.[member];
    return value === undefined || value === '';
  });
  if (missing.length > 0) {
    throw new PredgateError('AUTHENTICATION_ERROR', `${venue} needs the credentials members ${members.join(', ')}; missing ${missing.join(', ')}`, {
      exchange: venue,
      detail: { required: [...members], missing },
    });
  }
  return credentials!;
}
