import { PredgateError } from '../errors.js';

/**
 * The errors adapters raise themselves, each in one shape everywhere. The
 * gateway fills `exchange` on every error it answers with, so adapters name
 * the venue only in their messages.
 */

/** The caller's input cannot be answered on this venue: VALIDATION_ERROR naming the argument path. */
export function invalidArgument(path: string, message: string, detail: Record<string, unknown> = {}): PredgateError {
  return new PredgateError('VALIDATION_ERROR', message, {
    detail: { argument: path.split('.')[0], path, ...detail },
  });
}

/** The venue cannot do this at all, or not with these arguments: NOT_SUPPORTED with the reason. */
export function notSupported(method: string, reason: string): PredgateError {
  return new PredgateError('NOT_SUPPORTED', `${method}: ${reason}`, { detail: { method } });
}

/** An authenticated call without the credential members it needs: AUTHENTICATION_ERROR naming them. */
export function missingCredentials(venue: string, members: readonly string[]): PredgateError {
  return new PredgateError('AUTHENTICATION_ERROR', `${venue} needs the credential members ${members.map((member) => `"${member}"`).join(', ')} for this call`, {
    detail: { required: [...members] },
  });
}
