import type { VenueIngestion } from '@predgate/catalog';

/** Codes of a venue that did not answer (or not usefully): it is retried in the background. */
const unreachableCodes = new Set(['NETWORK_ERROR', 'EXCHANGE_NOT_AVAILABLE', 'RATE_LIMIT_EXCEEDED']);
/** Codes of a venue that answered but wants credentials to be read at all. */
const credentialCodes = new Set(['AUTHENTICATION_ERROR', 'PERMISSION_DENIED']);

/**
 * The first sweep round in a few lines a newcomer can read: what was swept,
 * and one line for each kind of trouble (venues that cannot be reached,
 * venues that need credentials to be swept, other failures) instead of a log
 * line per venue.
 */
export function firstRoundSummary(statuses: readonly VenueIngestion[]): string[] {
  const swept = statuses.filter((status) => status.lastSweep !== null);
  const failed = statuses.filter((status) => status.lastSweep === null && status.lastError !== null);
  const unreachable = failed.filter((status) => unreachableCodes.has(status.lastError!.code));
  const needCredentials = failed.filter((status) => credentialCodes.has(status.lastError!.code));
  const other = failed.filter((status) => !unreachableCodes.has(status.lastError!.code) && !credentialCodes.has(status.lastError!.code));
  const lines = [
    swept.length > 0
      ? `Catalog: ${plural(swept.length, 'venue')} swept (${swept.map((status) => `${status.venue} ${status.lastSweep!.events.toLocaleString('en-US')} events`).join(', ')})`
      : 'Catalog: no venue swept yet',
  ];
  if (unreachable.length > 0) {
    lines.push(`Unreachable, retried in the background (see /v0/status): ${unreachable.map((status) => status.venue).join(', ')}`);
  }
  if (needCredentials.length > 0) {
    lines.push(
      `Need credentials to be swept (give them in the venue's manifest config; calls with credentials still work): ${needCredentials.map((status) => status.venue).join(', ')}`,
    );
  }
  if (other.length > 0) {
    lines.push(
      `Sweep failed, retried in the background: ${other.map((status) => `${status.venue} (${status.lastError!.code}: ${status.lastError!.message})`).join('; ')}`,
    );
  }
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
