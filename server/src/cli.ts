import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { addArchiveCommands } from './archive/commands.js';
import { loadConfig } from './config.js';
import type { ServerConfig } from './config.js';
import { addKeyCommands, withKeys } from './keys/commands.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('predgate').description('Predgate: one HTTP/JSON gateway over prediction-market venues').version(version, '-v, --version');

program
  .command('serve')
  .description('start the gateway')
  .option('-c, --config <file>', 'JSON configuration file (environment variables win over it)')
  .action(async (options: { config?: string }) => {
    const config = loadConfig({ file: options.config });
    const firstKey = await ensureApiKey(config);
    // Loaded here so `predgate keys` does not pay for the whole gateway.
    const { createApp } = await import('./app.js');
    const { guardProcess } = await import('./process-guard.js');
    const { tokens } = await import('./container.js');
    const { firstRoundSummary } = await import('./startup-summary.js');
    const app = await createApp({ config, quietFirstSweeps: true });
    const metrics = app.container.resolve(tokens.metrics);
    guardProcess(app.server.logger, (kind) => metrics.processErrors.inc({ kind }));
    await app.server.start();
    const firstRound = app.catalog.firstRound();
    app.catalog.start();
    await app.archive.start();
    const uri = app.server.info.uri;
    const keyLines = firstKey
      ? [`API key (shown once; only its hash is kept, in ${firstKey.path}):`, `  ${firstKey.key}`]
      : [`API keys: ${app.keys.size} configured (manage them with "predgate keys")`];
    // The simulated venue answers without a network, so it makes the better first call.
    const tryLine = `Try: curl -H "Authorization: Bearer <key>" '${uri}/api/${app.venues.ids.includes('mock') ? 'mock' : app.venues.ids[0]}/fetchEvents?limit=2'`;
    const banner = [
      `Predgate ${version} listening on ${uri}`,
      `API reference: ${uri}/docs (OpenAPI: ${uri}/openapi.json)`,
      `Venues: ${app.venues.ids.join(', ') || 'none'}`,
      ...keyLines,
      tryLine,
      'Sweeping every venue into the catalog; a summary follows.',
    ];
    process.stdout.write(`${banner.join('\n')}\n`);
    // Once every venue has swept or failed once: one summary, and the key again, below whatever was logged meanwhile.
    void firstRound.then((statuses) => {
      process.stdout.write(`${[...firstRoundSummary(statuses), ...keyLines, `Docs: ${uri}/docs`].join('\n')}\n`);
    });

    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) process.exit(1);
      stopping = true;
      app.server.logger.info({ signal }, 'finishing in-flight requests, then stopping');
      app.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`predgate: shutdown failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
  });

addKeyCommands(program);
addArchiveCommands(program);

/** On a first start with no key anywhere, creates one so the gateway is never open. */
async function ensureApiKey(config: ServerConfig): Promise<{ key: string; path: string } | undefined> {
  return withKeys(config, async (store) => {
    if (store.size > 0) return undefined;
    const { key } = await store.create('generated on first start');
    return { key, path: store.location };
  });
}

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`predgate: ${(error as Error).message}\n`);
  process.exit(1);
});
