import { expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { testApp } from './helpers.js';

test('recording is off by default; turned on, the recorder reports messages, connections, gaps and journal lag on /metrics', async () => {
  expect(loadConfig({ env: {} }).archive.record).toBe(false);
  const quiet = await testApp();
  const quietMetrics = await quiet.call({ method: 'GET', url: '/metrics' });
  expect(quietMetrics.payload).not.toContain('predgate_archive_');
  await quiet.stop();

  // No tokens in the empty catalog, so the recorder opens no connection and needs no venue.
  const app = await testApp({ config: { archive: { record: true, tokensPerConnection: 500, refreshSeconds: 60, flushMs: 50, url: 'ws://127.0.0.1:9' } } });
  try {
    await app.archive.start();
    const metrics = (await app.call({ method: 'GET', url: '/metrics' })).payload;
    for (const line of [
      'predgate_archive_messages_total 0',
      'predgate_archive_gaps_total 0',
      'predgate_archive_connections{state="open"} 0',
      'predgate_archive_journal_lag_seconds 0',
      'predgate_archive_tokens 0',
      'predgate_archive_recorder_restarts_total 0',
    ]) {
      expect(metrics).toContain(line);
    }
  } finally {
    await app.stop();
  }
}, 60_000);
