import 'reflect-metadata';
import { Command } from 'commander';
import { addArchiveCommands } from './archive/commands.js';
import { loadConfig } from './config.js';
import type { ServerConfig } from './config.js';
import { addKeyCommands, withKeys } from './keys/commands.js';

const program = new Command('predgate').description('Predgate: one HTTP/JSON gateway over prediction-market venues');

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
    const app = await createApp({ config });
    const metrics = app.container.resolve(tokens.metrics);
    guardProcess(app.server.logger, (kind) => metrics.processErrors.inc({ kind }));
    await app.server.start();
    app.catalog.start();
    await app.archive.start();
    const lines = [
      `Predgate listening on ${app.server.info.uri}`,
      `Venues: ${app.venues.ids.join(', ') || 'none'}`,
      firstKey
        ? `API key (shown once; only its hash is kept, in ${firstKey.path}):\n  ${firstKey.key}`
        : `API keys: ${app.keys.size} configured (manage them with "predgate keys")`,
      // The simulated venue answers without a network, so it makes the better first call.
      `Try: curl -H "Authorization: Bearer <key>" '${app.server.info.uri}/api/${app.venues.ids.includes('mock') ? 'mock' : app.venues.ids[0]}/fetchEvents?limit=2'`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);

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
