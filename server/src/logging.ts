import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { AdapterPlugin } from '@predgate/core';
import pretty from 'pino-pretty';

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
];

const censor = '[redacted]';

/** Logs to `destination`; otherwise to stdout, as JSON lines, or as readable lines when stdout is a terminal. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor } }, destination ?? terminalDestination(process.stdout));
}

/**
 * The logger with, besides the gateway's own paths, every header the loaded
 * adapters declare secret blanked wherever a `headers` object is logged,
 * should an outbound venue request ever be: each adapter names its own
 * signing headers, so a new venue needs no line here.
 */
export function redactingVenueHeaders(logger: Logger, plugins: ReadonlyArray<Pick<AdapterPlugin, 'secretHeaders'>>): Logger {
  const names = new Set(plugins.flatMap((plugin) => plugin.secretHeaders ?? []).flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]));
  const paths = [...names].flatMap((name) => [`headers[${JSON.stringify(name)}]`, `*.headers[${JSON.stringify(name)}]`]);
  return paths.length === 0 ? logger : logger.child({}, { redact: { paths: [...redactedPaths, ...paths], censor } });
}

/**
 * Readable, coloured lines for a person at a terminal; undefined (pino's JSON
 * lines on stdout, for log collectors) for anything else. Redaction happens
 * before the line is formatted, so it holds either way.
 */
export function terminalDestination(stdout: { isTTY?: boolean }, write?: DestinationStream): DestinationStream | undefined {
  if (!stdout.isTTY) return undefined;
  return pretty({ colorize: write === undefined, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', ...(write ? { destination: write } : {}) });
}
