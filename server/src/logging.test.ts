import { Writable } from 'node:stream';
import { until } from '@predgate/core/testkit';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { createLogger, redactedPaths, redactingVenueHeaders, terminalDestination } from './logging.js';

function capturedLogger(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('log redaction of venue headers', () => {
  test('the headers each adapter declares secret are blanked in any case they are logged in; others stay', () => {
    const { lines, logger } = capturedLogger();
    const redacting = redactingVenueHeaders(logger, [{ secretHeaders: ['lmts-signature', 'POLY_API_KEY'] }, {}, { secretHeaders: ['x-pm-signature'] }]);
    redacting.info({ headers: { 'lmts-signature': 'sig-1', poly_api_key: 'key-1', 'x-trace': 'kept' } }, 'sent');
    redacting.warn({ request: { headers: { POLY_API_KEY: 'key-2', 'x-pm-signature': 'sig-2' } } }, 'nested');
    // The gateway's own paths still apply.
    redacting.info({ req: { headers: { authorization: 'Bearer pg_secret' } } }, 'inbound');
    const text = lines.join('');
    for (const secret of ['sig-1', 'key-1', 'key-2', 'sig-2', 'pg_secret']) expect(text).not.toContain(secret);
    expect(text).toContain('"x-trace":"kept"');
    expect(text.match(/\[redacted\]/g)).toHaveLength(5);
  });

  test('without declared headers the logger is the one given', () => {
    const { logger } = capturedLogger();
    expect(redactingVenueHeaders(logger, [{}, { secretHeaders: [] }])).toBe(logger);
  });
});

test('logs are JSON lines unless stdout is a terminal, where they are readable lines, redacted alike', async () => {
  expect(terminalDestination({ isTTY: false })).toBeUndefined();
  expect(terminalDestination({})).toBeUndefined();

  let output = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString('utf8');
      done();
    },
  });
  const destination = terminalDestination({ isTTY: true }, sink);
  expect(destination).toBeDefined();
  const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
  logger.warn({ venue: 'kalshi', credentials: { apiKey: 'secret-value' } }, 'catalog sweep failed');
  await until(() => output.includes('catalog sweep failed'), 'the pretty line');
  expect(output).toMatch(/WARN/);
  expect(output).toContain('venue: "kalshi"');
  expect(output).not.toContain('secret-value');
  expect(() => JSON.parse(output.split('\n')[0]!) as unknown).toThrow();
});
