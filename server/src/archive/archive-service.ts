import { join } from 'node:path';
import type { CatalogStore } from '@predgate/catalog';
import { PolymarketArchive, RecordingProcess, archivedVenue } from '@predgate/archive';
import type { CallAnswerer, SourcedAnswer, VenueCall } from '@predgate/core';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { InjectionToken } from 'tsyringe';
import type { ServerConfig } from '../config.js';
import { answerArchivedOrderBook } from './order-book.js';

export const archiveToken = Symbol('ArchiveService') as InjectionToken<ArchiveService>;

export function archiveDir(config: ServerConfig): string {
  return join(config.dataDir, 'archive', archivedVenue);
}

/**
 * The archive as the gateway runs it: always readable here, and recording when
 * `archive.record` is on, in a child process of its own (which owns the
 * journal and answers for the open hour), so recording and rolling never
 * stall this process's event loop. Otherwise a separate `predgate archive record` may record.
 */
export class ArchiveService implements CallAnswerer {
  readonly venues = [archivedVenue];

  private constructor(
    readonly archive: PolymarketArchive,
    readonly recording: RecordingProcess | undefined,
    private readonly store: CatalogStore,
  ) {}

  canAnswer(call: VenueCall): boolean {
    return this.venues.includes(call.venue);
  }

  /** A `since`/`until` call the gateway routed here; its data is as of the latest book answered. */
  async answer(call: VenueCall): Promise<SourcedAnswer> {
    const data = await answerArchivedOrderBook({ venue: call.venue, method: call.method, args: call.args, archive: this.archive, store: this.store });
    const times = (Array.isArray(data) ? data : [data]).map((book) => book.timestamp).filter((time): time is number => time !== undefined);
    return { data, servedFrom: 'archive', ...(times.length > 0 ? { asOf: Math.max(...times) } : {}) };
  }

  static async open(options: { config: ServerConfig; store: CatalogStore; logger: Logger; record?: boolean }): Promise<ArchiveService> {
    const { config } = options;
    const record = options.record ?? config.archive.record;
    const recording = record
      ? new RecordingProcess({
          archive: { dir: archiveDir(config), flushIntervalMs: config.archive.flushMs },
          recorder: {
            tokensPerConnection: config.archive.tokensPerConnection,
            refreshIntervalMs: config.archive.refreshSeconds * 1000,
            ...(config.archive.url ? { channel: { url: config.archive.url } } : {}),
          },
          listTokens: () => activePolymarketTokens(options.store),
          logger: options.logger.child({ component: 'archive' }),
        })
      : undefined;
    const archive = await PolymarketArchive.open({ dir: archiveDir(config), mode: 'read', ...(recording ? { openHours: recording } : {}) });
    return new ArchiveService(archive, recording, options.store);
  }

  /** Recorder figures on `/metrics`, read when scraped. */
  registerMetrics(registry: Registry): void {
    const recorder = this.recording;
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
    new Counter({
      name: 'predgate_archive_recorder_restarts_total',
      help: 'Times the recording process ended unasked and was started again',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(recorder.stats().restarts);
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
    await this.recording?.start();
  }

  async stop(): Promise<void> {
    await this.recording?.stop();
    await this.archive.close();
  }
}

/** Every outcome token of the catalog's active Polymarket markets. */
async function activePolymarketTokens(store: CatalogStore): Promise<string[]> {
  const tokens: string[] = [];
  const limit = 1_000;
  for (let offset = 0; ; offset += limit) {
    const page = await store.markets({ venue: archivedVenue, status: 'active', limit, offset });
    for (const { market } of page.items) for (const outcome of market.outcomes) tokens.push(outcome.outcomeId);
    if (page.items.length < limit) return tokens;
  }
}
