import { PredgateError, isPredgateError } from '@predgate/core';
import type { Credentials } from '@predgate/core';

const mask = '[redacted]';

/**
 * The error without any credential value in its message, stack or detail.
 * Adapters (ours or a third party's) may quote a venue's answer that echoes a
 * signed request; nothing of it may reach the log or the client.
 */
export function scrubCredentials(error: unknown, credentials: Credentials | undefined): unknown {
  const secrets = Object.values(credentials ?? {})
    .filter((value): value is string => typeof value === 'string' && value.length >= 4)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0 || typeof error !== 'object' || error === null) return error;
  const clean = (text: string) => secrets.reduce((result, secret) => result.split(secret).join(mask), text);
  // Value by value: in JSON text a secret with a newline or a quote (a PEM key) would be escaped past recognition.
  const cleanValue = (value: unknown): unknown => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(cleanValue);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [clean(key), cleanValue(member)]));
  };
  if (isPredgateError(error)) {
    const detail = error.detail ? (cleanValue(error.detail) as Record<string, unknown>) : null;
    return new PredgateError(error.code, clean(error.message), { exchange: error.exchange, detail, retryable: error.retryable, status: error.status });
  }
  const original = error as Error;
  const scrubbed = new Error(clean(String(original.message)));
  scrubbed.name = original.name;
  scrubbed.stack = clean(String(original.stack ?? ''));
  return scrubbed;
}
