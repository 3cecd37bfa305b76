import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/**
 * Paths pino blanks in every log line. Request logs carry headers; nothing
 * logs request payloads, but a credentials member is blanked wherever it
 * appears should a payload ever be logged.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-pmxt-access-token"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'credentials',
  '*.credentials',
  'payload.credentials',
  'req.payload.credentials',
  // Venue signing headers, should an outbound request ever be logged.
  'headers["poly_signature"]',
  'headers["poly_api_key"]',
  'headers["poly_passphrase"]',
  'headers["kalshi-access-signature"]',
  'headers["kalshi-access-key"]',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
