import { join } from 'node:path';
import type { CatalogStore } from '@predgate/catalog';
import { PolymarketArchive, Recorder } from '@predgate/archive';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { InjectionToken } from 'tsyringe';
import type { ServerConfig } from '../config.js';
import type { ArchiveBooks } from '../container.js';
import { answerArchivedOrderBook } from './order-book.js';

/** The venues whose order books the archive keeps. */
export const archivedVenues = ['polymarket'] as const;

export const archiveToken = Symbol('ArchiveService') as InjectionToken<ArchiveService>;

export function archiveDir(config: ServerConfig): string {
  return join(config.dataDir, 'archive', 'polymarket');
}

/**
 * The archive as the gateway runs it: always readable, and recording when
 * `archive.record` is on (then this process owns the journal; otherwise a
 * separate `predgate archive record` may).
 */
export class ArchiveService implements ArchiveBooks {
  readonly venues = archivedVenues;

  private constructor(
    readonly archive: PolymarketArchive,
    readonly recorder: Recorder | undefined,
    private readonly store: CatalogStore,
  ) {}

  /** A `since`/`until` call the gateway routed here (the core refuses it for venues not in `venues`). */
  answer(venue: string, method: string, args: readonly unknown[]): Promise<unknown> {
    return answerArchivedOrderBook({ venue, method, args, archive: this, store: this.store });
  }

  static async open(options: { config: ServerConfig; store: CatalogStore; logger: Logger; record?: boolean }): Promise<ArchiveService> {
    const { config } = options;
    const record = options.record ?? config.archive.record;
    const archive = await PolymarketArchive.open({ dir: archiveDir(config), mode: record ? 'write' : 'read', flushIntervalMs: config.archive.flushMs });
    const recorder = record
      ? new Recorder({
          archive,
          listTokens: () => activePolymarketTokens(options.store),
          tokensPerConnection: config.archive.tokensPerConnection,
          refreshIntervalMs: config.archive.refreshSeconds * 1000,
          channel: config.archive.url ? { url: config.archive.url } : {},
          logger: options.logger.child({ component: 'archive' }),
        })
      : undefined;
    return new ArchiveService(archive, recorder, options.store);
  }

  /** Recorder figures on `/metrics`, read when scraped. */
  registerMetrics(registry: Registry): void {
    const recorder = this.recorder;
    if (!recorder) return;
    new Counter({
      name: 'predgate_archive_messages_total',
      help: 'Market-channel frames recorded (rate() gives messages/s)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(recorder.stats().messages);
      },
    });
    new Counter({
      name: 'predgate_archive_gaps_total',
      help: 'Connection drops written to the archive as gaps',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(recorder.stats().gaps);
      },
    });
    new Gauge({
      name: 'predgate_archive_connections',
      help: 'Market-channel connections, by state',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = recorder.stats();
        this.set({ state: 'open' }, stats.openConnections);
        this.set({ state: 'down' }, stats.connections - stats.openConnections);
      },
    });
    new Gauge({
      name: 'predgate_archive_journal_lag_seconds',
      help: 'Age of the oldest recorded row not yet synced to the journal',
      registers: [registry],
      collect() {
        this.set(recorder.stats().journalLagMs / 1000);
      },
    });
    new Gauge({
      name: 'predgate_archive_tokens',
      help: 'Outcome tokens being recorded',
      registers: [registry],
      collect() {
        this.set(recorder.stats().tokens);
      },
    });
  }

  async start(): Promise<void> {
    await this.recorder?.start();
  }

  async stop(): Promise<void> {
    await this.recorder?.stop();
    await this.archive.close();
  }
}

/** Every outcome token of the catalog's active Polymarket markets. */
async function activePolymarketTokens(store: CatalogStore): Promise<string[]> {
  const tokens: string[] = [];
  const limit = 1_000;
  for (let offset = 0; ; offset += limit) {
    const page = await store.markets({ venue: 'polymarket', status: 'active', limit, offset });
    for (const { market } of page.items) for (const outcome of market.outcomes) tokens.push(outcome.outcomeId);
    if (page.items.length < limit) return tokens;
  }
}
