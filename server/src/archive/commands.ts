import { join } from 'node:path';
import type { PolymarketArchive } from '@predgate/archive';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { ServerConfig } from '../config.js';
import { createLogger } from '../logging.js';

// The archive, DuckDB and the catalog load only when an archive command runs, so `predgate keys` stays light.
const archiveService = () => import('./archive-service.js');

/** `predgate archive record|import|verify|files`. */
export function addArchiveCommands(program: Command): void {
  const archive = program.command('archive').description("Polymarket's order-book archive: record it, import pmxt's hourly files, check and list the files");
  const configOption = ['-c, --config <file>', 'JSON configuration file (environment variables win over it)'] as const;

  archive
    .command('record')
    .description("record the market channel for the catalog's active Polymarket markets, in a child process this one watches (stop with Ctrl-C)")
    .option(...configOption)
    .action(async (options: { config?: string }) => {
      const config = loadConfig({ file: options.config });
      const logger = createLogger(config.logLevel);
      const { ArchiveService, archiveDir } = await archiveService();
      const { EmbeddedCatalogStore, MongoCatalogStore } = await import('@predgate/catalog');
      const store = config.catalogUrl ? new MongoCatalogStore({ url: config.catalogUrl }) : new EmbeddedCatalogStore({ dir: join(config.dataDir, 'catalog') });
      await store.open();
      const service = await ArchiveService.open({ config, store, logger, record: true });
      await service.start();
      process.stdout.write(`Recording into ${archiveDir(config)}; tokens follow the catalog every ${config.archive.refreshSeconds} s\n`);
      const report = setInterval(() => logger.info({ recorder: service.recording?.stats() }, 'archive recorder'), 60_000);
      const stop = () => {
        clearInterval(report);
        service
          .stop()
          .then(() => store.close())
          .then(
            () => process.exit(0),
            (error: unknown) => {
              process.stderr.write(`predgate: stopping the recorder failed: ${(error as Error).message}\n`);
              process.exit(1);
            },
          );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });

  archive
    .command('import')
    .description("load hourly files in pmxt's v2 format; rows already held count once")
    .argument('<files...>', 'polymarket_orderbook_YYYY-MM-DDTHH.parquet files')
    .option(...configOption)
    .action(async (files: string[], options: { config?: string }) => {
      await withArchive(loadConfig({ file: options.config }), async (opened) => {
        const report = await opened.importFiles(files);
        process.stdout.write(`imported ${report.rows} rows from ${report.files} files into ${report.hours.length} hours (${report.duplicates} already held)\n`);
      });
    });

  archive
    .command('verify')
    .description('check every published file against its recorded size, row count and SHA-256')
    .option(...configOption)
    .action(async (options: { config?: string }) => {
      await withArchive(loadConfig({ file: options.config }), async (opened) => {
        const results = await opened.verify();
        for (const result of results) process.stdout.write(`${result.problem ? 'BAD' : 'ok '}\t${result.file}${result.problem ? `\t${result.problem}` : ''}\n`);
        if (results.some((result) => result.problem)) process.exitCode = 1;
      });
    });

  archive
    .command('files')
    .description('list the published hourly files')
    .option(...configOption)
    .action(async (options: { config?: string }) => {
      await withArchive(loadConfig({ file: options.config }), async (opened) => {
        for (const file of opened.listFiles()) process.stdout.write(`${file.name}\t${file.rows}\t${file.size}\t${file.sha256}\n`);
      });
    });
}

/** The archive opened for reading; importing writes only whole closed hours, never the recorder's journal. */
async function withArchive(config: ServerConfig, work: (archive: PolymarketArchive) => Promise<void>): Promise<void> {
  const { archiveDir } = await archiveService();
  const { PolymarketArchive } = await import('@predgate/archive');
  const archive = await PolymarketArchive.open({ dir: archiveDir(config), mode: 'read' });
  try {
    await work(archive);
  } finally {
    await archive.close();
  }
}
